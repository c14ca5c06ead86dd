import { readRegularText, RegularFileError } from '../util/regular-file.js';
import { ImageError } from './image-error.js';

/** Where a repository's devcontainer lives (the spec's two places), in the order they are read. */
export const DEVCONTAINER_FILES = ['.devcontainer/devcontainer.json', '.devcontainer.json'] as const;

/** The form greenfix supports, for every refusal. */
const SUPPORTED = 'greenfix runs a prebuilt image: name it with "image" in devcontainer.json, or with environment: { image: … } in .github/greenfix.yml';

/**
 * The image a repository's devcontainer.json names, read from the worktree as hostile (a regular
 * file, no symlink, at most 1 MB; JSON with comments, as the spec allows), or null when there is
 * none. A devcontainer that builds its image (`build`, `dockerFile`, `dockerComposeFile`) is
 * refused: greenfix builds nothing from a repository.
 */
export function devcontainerImage(worktree: string): { reference: string; file: string } | null {
  for (const file of DEVCONTAINER_FILES) {
    let text: string | null;
    try {
      text = readRegularText(worktree, file, 1024 * 1024);
    } catch (error) {
      if (error instanceof RegularFileError) throw new ImageError('bad-reference', `${file} was not read: ${error.message}`);
      throw error;
    }
    if (text === null) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(withoutComments(text));
    } catch (error) {
      throw new ImageError('bad-reference', `${file} is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ImageError('bad-reference', `${file} is not a JSON object`);
    const fields = parsed as Record<string, unknown>;
    if (typeof fields.image === 'string' && fields.image.trim() !== '') return { reference: fields.image.trim(), file };
    const builds = ['build', 'dockerFile', 'dockerComposeFile'].find((key) => key in fields);
    if (builds) throw new ImageError('bad-reference', `${file} builds its image (${JSON.stringify(builds)}), which greenfix does not do: ${SUPPORTED}`);
    return null;
  }
  return null;
}

/** JSONC → JSON: `//` and `/* *\/` comments and trailing commas removed, strings left as they are. */
function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      out += c;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}
