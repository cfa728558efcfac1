/** guard's version and home, read once from the package.json shipped beside dist/. */

import { readFileSync } from 'node:fs';
import type { RuleLinks } from '../report/sarif.js';

interface PackageInfo {
  version?: string;
  homepage?: string;
  repository?: string | { url?: string };
}

function readPackage(): PackageInfo {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageInfo;
  } catch {
    return {};
  }
}

const PKG = readPackage();

export const VERSION = PKG.version ?? '0.0.0';

/**
 * The repository's web address from package.json `repository` (`git+https://…/x.git` → `https://…/x`),
 * or null when package.json names none.
 */
export function repositoryUrl(pkg: PackageInfo = PKG): string | null {
  const raw = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  if (!raw) return null;
  const url = raw.replace(/^git\+/, '').replace(/\.git$/, '').replace(/^git:\/\//, 'https://');
  return /^https:\/\//.test(url) ? url : null;
}

/**
 * A rule's anchor in docs/rules.md "Rule reference": its heading's id as GitHub renders it (lower
 * case, punctuation but `-` and `_` dropped, spaces as `-`): `curl-pipe-shell`,
 * `guardleak-refusedprose`.
 */
export function ruleAnchor(ruleId: string): string {
  return ruleId.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/**
 * Where guard's documentation lives: the repository's home page (SARIF `informationUri`) and each
 * rule's section of docs/rules.md on the default branch (`helpUri`); null without `repository`.
 */
export function ruleLinks(pkg: PackageInfo = PKG): RuleLinks | null {
  const repo = repositoryUrl(pkg);
  if (repo === null) return null;
  const home = pkg.homepage ?? repo;
  return { home, helpUri: (id) => `${repo}/blob/main/docs/rules.md#${ruleAnchor(id)}` };
}
