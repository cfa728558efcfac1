/**
 * Paths as the effects model compares them: resolved against the working directory a `cd` moved
 * to, normalised lexically, and the device class of a path.
 */
import { normalizePath } from '../shell/words.js';

/** A path resolved against the working directory a `cd` earlier in the line moved to (when
 * known), then normalised; absolute and `~` paths are only normalised. */
export function resolveIn(cwd: string | null, path: string): string {
  if (cwd === null || path === '' || path.startsWith('/') || path === '~' || path.startsWith('~/') || /^[a-z][\w+.-]*:/i.test(path)) return normalizePath(path);
  return normalizePath(`${cwd}/${path}`);
}

/** Raw block devices (Linux sd/hd/vd/xvd/nvme/mmcblk/md/dm/loop/mapper, macOS disk/rdisk). */
export function isBlockDevice(path: string): boolean {
  return /^\/dev\/(?:sd[a-z]+\d*|hd[a-z]\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+(?:n\d+)?(?:p\d+)?|mmcblk\d+(?:p\d+)?|md\d+|dm-\d+|loop\d+|mapper\/.+|r?disk\d+(?:s\d+)?)$/.test(path);
}
