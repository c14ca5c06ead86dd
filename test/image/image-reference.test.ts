import { ImageError } from '../../src/image/image-error.js';
import { isLoopbackRegistry, parseImageReference, transportName } from '../../src/image/image-reference.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('image references', () => {
  it.each([
    ['python:3.12-slim', 'docker.io', 'library/python', '3.12-slim', null],
    ['rust', 'docker.io', 'library/rust', 'latest', null],
    ['someorg/env:1', 'docker.io', 'someorg/env', '1', null],
    ['ghcr.io/org/env:2024.1', 'ghcr.io', 'org/env', '2024.1', null],
    ['127.0.0.1:5000/team/env', '127.0.0.1:5000', 'team/env', 'latest', null],
    [`localhost/env@${DIGEST}`, 'localhost', 'env', null, DIGEST],
    [`mcr.microsoft.com/devcontainers/python:1-3.12@${DIGEST}`, 'mcr.microsoft.com', 'devcontainers/python', '1-3.12', DIGEST],
  ])('%s → registry %s, repository %s', (text, registry, repository, tag, digest) => {
    expect(parseImageReference(text)).toEqual({ text, registry, repository, tag, digest });
  });

  it('names skopeo\'s transport by tag, or by the pinned digest', () => {
    const ref = parseImageReference('python:3.12');
    expect(transportName(ref)).toBe('docker://docker.io/library/python:3.12');
    expect(transportName(ref, DIGEST)).toBe(`docker://docker.io/library/python@${DIGEST}`);
  });

  it.each(['Python:3', 'python 3', 'ghcr.io/org/env:tag with space', '../escape', 'python@sha256:short', ''])('refuses %j', (text) => {
    expect(() => parseImageReference(text)).toThrow(ImageError);
    expect(() => parseImageReference(text)).toThrow(/is not an image reference/);
  });

  it('allows plain HTTP only for loopback registries by itself', () => {
    expect(['127.0.0.1:5000', 'localhost:5000', 'localhost', '[::1]:5000'].map(isLoopbackRegistry)).toEqual([true, true, true, true]);
    expect(['registry.internal:5000', '10.0.0.1:5000', 'docker.io'].map(isLoopbackRegistry)).toEqual([false, false, false]);
  });
});
