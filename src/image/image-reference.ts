import { ImageError } from './image-error.js';

/** An image reference as people write it (`python:3.12`, `ghcr.io/org/env:1`, `127.0.0.1:5000/x@sha256:…`), parsed. */
export interface ImageReference {
  /** As written. */
  text: string;
  /** Host (and port) of the registry; `docker.io` when none is named. */
  registry: string;
  /** The path on the registry (`library/python` for Docker Hub's short names). */
  repository: string;
  tag: string | null;
  digest: string | null;
}

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REFERENCE = new RegExp(
  `^(?:(?<host>[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\\d+)?)/)?(?<path>${COMPONENT}(?:/${COMPONENT})*)(?::(?<tag>[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?(?:@(?<digest>sha256:[a-f0-9]{64}))?$`,
);

/** Parses the Docker reference grammar; a first component is a registry when it has a dot, a port or is `localhost`. */
export function parseImageReference(text: string): ImageReference {
  const trimmed = text.trim();
  const match = REFERENCE.exec(trimmed);
  if (!match?.groups || trimmed.length > 512) {
    throw new ImageError('bad-reference', `${JSON.stringify(text)} is not an image reference (such as python:3.12 or ghcr.io/org/image:tag)`);
  }
  const { host, path = '', tag, digest } = match.groups;
  const isRegistry = host !== undefined && (host.includes('.') || host.includes(':') || host === 'localhost');
  const repository = isRegistry ? path : host !== undefined ? `${host}/${path}` : path;
  const registry = isRegistry && host ? host : 'docker.io';
  return {
    text: trimmed,
    registry,
    repository: registry === 'docker.io' && !repository.includes('/') ? `library/${repository}` : repository,
    tag: tag ?? (digest ? null : 'latest'),
    digest: digest ?? null,
  };
}

/** The name skopeo's docker transport reads: by digest once pinned, else by tag. */
export function transportName(ref: ImageReference, digest?: string): string {
  const at = digest ?? ref.digest;
  return `docker://${ref.registry}/${ref.repository}${at ? `@${at}` : `:${ref.tag ?? 'latest'}`}`;
}

/** A registry on this machine's loopback: plain HTTP is allowed there without the operator listing it. */
export function isLoopbackRegistry(registry: string): boolean {
  const host = registry.replace(/:\d+$/, '');
  return host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}
