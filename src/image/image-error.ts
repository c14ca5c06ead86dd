/**
 * Why an environment image could not be used. Callers branch on `reason`; the message is written
 * for the person who configured the image (the repository's maintainer or the operator).
 */
export type ImageErrorReason =
  /** The reference is not a valid image reference, or a devcontainer asks for a build. */
  | 'bad-reference'
  /** skopeo or umoci is not installed. */
  | 'tools-missing'
  /** The registry refused or could not be reached (not found, unauthorised, network). */
  | 'pull-failed'
  /** A layer holds what greenfix never unpacks: an escaping path or link, a device, a setuid file. */
  | 'unsafe-layer'
  /** The layers could not be unpacked (an unsupported format, a corrupt archive). */
  | 'unpack-failed';

export class ImageError extends Error {
  override readonly name = 'ImageError';
  constructor(
    readonly reason: ImageErrorReason,
    message: string,
  ) {
    super(message);
  }
}
