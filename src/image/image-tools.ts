import { findExecutable } from '../sandbox/find-executable.js';

/** The programs environment images need, found on PATH. */
export interface ImageTools {
  skopeo: string;
  umoci: string;
}

/** What to install when they are missing (Debian and Ubuntu packages of the same names). */
export const IMAGE_TOOLS_HINT = 'environment images need skopeo (the registry) and umoci (the layers): apt-get install skopeo umoci';

/** Both tools, or the names of those missing. */
export function findImageTools(pathValue: string | undefined): ImageTools | { missing: string[] } {
  const skopeo = findExecutable('skopeo', pathValue);
  const umoci = findExecutable('umoci', pathValue);
  if (skopeo && umoci) return { skopeo, umoci };
  return { missing: [...(skopeo ? [] : ['skopeo']), ...(umoci ? [] : ['umoci'])] };
}
