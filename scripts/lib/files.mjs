import fs from 'node:fs';

/** True when `p` is a file (not a folder, not missing). */
export function isFile(p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
