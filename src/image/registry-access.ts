/**
 * How greenfix talks to registries, as the operator configured it (config/: GREENFIX_REGISTRY_AUTH_FILE,
 * GREENFIX_INSECURE_REGISTRIES). Never from a repository: a repository names an image, nothing more.
 */
export interface RegistryAccess {
  /** A containers-auth.json (what `podman login` / `docker login` write): credentials per registry host. Null: anonymous. */
  authFile: string | null;
  /** Registries reached over plain HTTP (or unverified TLS) besides those on loopback. */
  insecureRegistries: readonly string[];
}

export const ANONYMOUS: RegistryAccess = { authFile: null, insecureRegistries: [] };
