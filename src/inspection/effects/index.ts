/**
 * The effects model: for one simple command of a parsed command line (and so for every command it
 * starts, since carriers' payloads are commands of the same line), what it writes, reads, deletes,
 * sends to which host, and runs. Rules ask these questions ("writes a shell start-up file",
 * "sends a credential file to a host") instead of listing programs; the tables of programs live
 * here, as data, one module per kind of effect.
 */
import type { ShellCommand } from '../shell/model.js';
import { deleteTargets, writeTargets } from './writes.js';
import { readSources } from './reads.js';
import { sendsOf, type Send } from './network.js';

export { parseOpts, opts, CURL_VALUED, WGET_VALUED, type Opts } from './options.js';
export { resolveIn, isBlockDevice } from './paths.js';
export { writeTargets, deleteTargets, WRITERS, type WriterSpec } from './writes.js';
export { readSources } from './reads.js';
export { uploadedFiles, DOWNLOADERS, NETWORK_SINKS, isDownloader, hasDownloader, remoteHosts, remoteOf, sendsOf, isRemoteSource, type Send } from './network.js';
export { runsStdin, isDecoder, executedSubstitutions, downloadedFiles, executedFiles, redirectedTo } from './exec.js';

/** Every effect of one command that the model knows. Paths are normalised and resolved against
 * the working directory a `cd` moved to. */
export interface Effects {
  /** Paths written (redirect targets, writer programs' output paths). */
  writes: string[];
  /** Paths whose contents are read. */
  reads: string[];
  /** Paths deleted, shredded or emptied. */
  deletes: string[];
  /** Transfers to other hosts. */
  sends: Send[];
}

const cache = new WeakMap<ShellCommand, Effects>();

/**
 * The effects of one command, computed once per command object.
 * @param cmd a simple command of a parsed command line.
 * @returns its {@link Effects}; never throws for a well-formed command.
 */
export function effectsOf(cmd: ShellCommand): Effects {
  let e = cache.get(cmd);
  if (e === undefined) {
    const reads = readSources(cmd);
    // what a command writes into /dev/tcp is what it read (`cat key >/dev/tcp/h/p`)
    const sends = sendsOf(cmd).map((s) => (s.channel === 'dev-tcp' ? { ...s, files: [...new Set([...s.files, ...reads])] } : s));
    e = { writes: writeTargets(cmd), reads, deletes: deleteTargets(cmd), sends };
    cache.set(cmd, e);
  }
  return e;
}
