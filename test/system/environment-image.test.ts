import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { REGISTRY_PASSWORD, REGISTRY_USER, startRegistry, type RegistryServer } from '../support/registry-server.js';
import { IMAGE_TOOL, pushImage, toolImageLayer } from '../support/test-images.js';
import type { Harness } from './harness.js';
import { expectPinnedEvidence, labelledInImage, statusComment } from './image-fixture.js';

describe('a repository in its own environment image (environment.image), through the app', () => {
  let open: RegistryServer;
  let locked: RegistryServer;
  let h: Harness | undefined;
  beforeAll(async () => {
    [open, locked] = await Promise.all([startRegistry(), startRegistry({ auth: true })]);
  });
  afterEach(async () => h?.close());
  afterAll(async () => {
    await Promise.all([open?.stop(), locked?.stop()]);
    nock.restore();
  });

  it('is fixed only inside its image, and the PR and check run name the digest the registry serves', async () => {
    const reference = pushImage(open.host, 'acme/toolchain', [toolImageLayer()]);
    h = await labelledInImage({}, `verify: ${IMAGE_TOOL}\nenvironment:\n  image: ${reference}\n`);
    expect(h.remoteTree('greenfix/issue-7')).toMatch(/^[0-9a-f]{40}$/);
    const digest = expectPinnedEvidence(h, reference);
    const served = await fetch(`http://${open.host}/v2/acme/toolchain/manifests/v1`, { method: 'HEAD', headers: { Accept: 'application/vnd.oci.image.manifest.v1+json' } });
    expect(served.headers.get('docker-content-digest')).toBe(digest);
  });

  it('from a private registry the operator gave no credentials for: one clear status comment, no model, no PR', async () => {
    const reference = pushImage(locked.host, 'acme/private', [[{ path: 'x', kind: 'file', content: 'x' }]], `${REGISTRY_USER}:${REGISTRY_PASSWORD}`);
    h = await labelledInImage({}, `verify: ${IMAGE_TOOL}\nenvironment:\n  image: ${reference}\n`);
    expect(h.state.pulls).toHaveLength(0);
    const status = statusComment(h);
    expect(status).toContain(`could not pull ${reference} from ${locked.host}`);
    expect(status).toContain(`credentials for ${locked.host} in the operator's GREENFIX_REGISTRY_AUTH_FILE`);
    expect(status).not.toContain(REGISTRY_PASSWORD);
  });
});
