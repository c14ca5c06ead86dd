import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { startRegistry, type RegistryServer } from '../support/registry-server.js';
import { IMAGE_TOOL, pushImage, toolImageLayer } from '../support/test-images.js';
import type { Harness } from './harness.js';
import { expectPinnedEvidence, labelledInImage, statusComment } from './image-fixture.js';

describe('a repository whose devcontainer.json names its environment, through the app', () => {
  let registry: RegistryServer;
  let h: Harness | undefined;
  beforeAll(async () => {
    registry = await startRegistry();
  });
  afterEach(async () => h?.close());
  afterAll(async () => {
    await registry?.stop();
    nock.restore();
  });

  it('is fixed in the image devcontainer.json names (JSON with comments, as the spec allows)', async () => {
    const reference = pushImage(registry.host, 'acme/devcontainer', [toolImageLayer()]);
    const devcontainer = `{\n  // the team's toolchain\n  "name": "acme",\n  "image": "${reference}",\n  "customizations": { "vscode": { "extensions": ["a.b"] } },\n}\n`;
    h = await labelledInImage({ '.devcontainer/devcontainer.json': devcontainer }, `verify: ${IMAGE_TOOL}\n`);
    expectPinnedEvidence(h, reference);
  });

  it('refuses a devcontainer built from a Dockerfile, naming the form it supports, before asking the model', async () => {
    const devcontainer = '{ "build": { "dockerfile": "Dockerfile" } }\n';
    h = await labelledInImage({ '.devcontainer/devcontainer.json': devcontainer, '.devcontainer/Dockerfile': 'FROM debian\n' }, `verify: ${IMAGE_TOOL}\n`);
    expect(h.state.pulls).toHaveLength(0);
    const status = statusComment(h);
    expect(status).toContain('.devcontainer/devcontainer.json builds its image ("build"), which greenfix does not do');
    expect(status).toContain('name it with "image" in devcontainer.json, or with environment: { image: … } in .github/greenfix.yml');
  });
});
