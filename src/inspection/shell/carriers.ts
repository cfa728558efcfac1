/**
 * Command carriers: programs that run another command. Wrappers that run their arguments as the
 * command (`sudo`, `doas`, `env`, `nohup`, `timeout`, `nice`, `strace`, …) are stripped in front of
 * it ({@link stripWrappers}); programs that run a payload have it analysed as nested commands
 * ({@link expandCarrier}): `sh|bash|… -c`, a shell reading a heredoc or herestring, `eval`,
 * `su -c`, `ssh host cmd`, `xargs`/`parallel`, `find -exec`, `watch`, `flock -c`, interpreter
 * one-liners. Option tables follow each program's manual page (sudo(8), env(1), xargs(1),
 * parallel(1), find(1), timeout(1), …).
 */
import type { ShellCommand, Word } from './model.js';
import { baseName, normalizePath } from './words.js';
import { printfOutput } from './expand.js';
import { INTERPRETERS, interpreterCode, interpreterShellTexts } from './interp.js';
import { analyzeCode, factsAsShell } from '../code/analyze.js';
import type { CodeLanguage } from './parser.js';
import { CWD, IFS_MARK, MAX_DEPTH, SHELLS, plainWord, positionalEnv, quoteForDisplay, type Ctx } from './context.js';
import { globMatches, hasGlob } from './expand.js';
import { literalOutput } from './wordexp.js';

export const WRAPPERS: Record<string, { valued: string; longValued?: string[]; positional?: number }> = {
  sudo: { valued: 'ugCDhpRrtUT', longValued: ['user', 'group', 'chdir', 'prompt', 'role', 'type', 'close-from', 'host', 'other-user', 'command-timeout'] },
  doas: { valued: 'uC' },
  pkexec: { valued: '', longValued: ['user'] },
  command: { valued: '' },
  builtin: { valued: '' },
  exec: { valued: 'a' },
  nohup: { valued: '' },
  nice: { valued: 'n', longValued: ['adjustment'] },
  ionice: { valued: 'cnpPu', longValued: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
  stdbuf: { valued: 'ioe', longValued: ['input', 'output', 'error'] },
  timeout: { valued: 'sk', longValued: ['signal', 'kill-after'], positional: 1 },
  time: { valued: 'fo', longValued: ['format', 'output'] },
  setsid: { valued: '' },
  busybox: { valued: '' },
  toybox: { valued: '' },
  chroot: { valued: '', longValued: ['userspec', 'groups'], positional: 1 },
  caffeinate: { valued: 'tw' },
  coproc: { valued: '' },
  strace: { valued: 'abeEIoOpPsSuUX', longValued: ['output', 'trace', 'signal', 'string-limit', 'user', 'attach', 'env'] },
  ltrace: { valued: 'aAeEfFLnopsSuxX', longValued: ['output', 'config'] },
  flock: { valued: 'wEc', longValued: ['timeout', 'wait', 'conflict-exit-code', 'command'], positional: 1 },
  taskset: { valued: '', positional: 1 },
  chrt: { valued: 'TPD', longValued: ['sched-runtime', 'sched-period', 'sched-deadline'], positional: 1 },
  unbuffer: { valued: '' },
  runuser: { valued: 'ugGwc', longValued: ['user', 'group', 'supp-group', 'whitelist-environment', 'command', 'shell'] },
  proxychains: { valued: 'f' },
  proxychains4: { valued: 'f' },
  torsocks: { valued: 'uapPi' },
  'dbus-run-session': { valued: '' },
  faketime: { valued: '', positional: 1 },
  // util-linux unshare(1), nsenter(1), setpriv(1): https://man7.org/linux/man-pages/man1/unshare.1.html,
  // https://man7.org/linux/man-pages/man1/nsenter.1.html, https://man7.org/linux/man-pages/man1/setpriv.1.html
  // (namespace options take a file only attached: `--mount=FILE`, `-mFILE`)
  unshare: { valued: 'RwSGl', longValued: ['root', 'wd', 'setuid', 'setgid', 'map-user', 'map-group', 'map-users', 'map-groups', 'propagation', 'setgroups', 'monotonic', 'boottime', 'load-interp'] },
  nsenter: { valued: 'tSG', longValued: ['target', 'setuid', 'setgid', 'env'] },
  setpriv: { valued: '', longValued: ['reuid', 'regid', 'ruid', 'euid', 'rgid', 'egid', 'groups', 'inh-caps', 'ambient-caps', 'bounding-set', 'securebits', 'pdeathsig', 'selinux-label', 'apparmor-profile', 'landlock-access', 'landlock-rule', 'seccomp-filter'] },
  // systemd-run(1) starts its command as a transient unit: https://www.freedesktop.org/software/systemd/man/latest/systemd-run.html
  'systemd-run': { valued: 'puEHM', longValued: ['property', 'unit', 'setenv', 'host', 'machine', 'description', 'slice', 'uid', 'gid', 'nice', 'working-directory', 'on-active', 'on-boot', 'on-startup', 'on-unit-active', 'on-unit-inactive', 'on-calendar', 'on-clock-change', 'on-timezone-change', 'timer-property', 'path-property', 'socket-property', 'service-type', 'background', 'json'] },
  // firejail(1) takes its options as `--opt=value`; xvfb-run(1); runit's chpst(8): http://smarden.org/runit/chpst.8.html
  firejail: { valued: '' },
  'xvfb-run': { valued: 'nsfep', longValued: ['server-num', 'server-args', 'auth-file', 'error-file', 'xauth-protocol'] },
  chpst: { valued: 'uUe/nlLmdopfcrt' },
  'ssh-agent': { valued: 'aEPt' },
  cgexec: { valued: 'g' },
};

/** Wrappers that run their arguments joined as one shell line (`watch` passes them to `sh -c`). */
export const LINE_RUNNERS: Record<string, { valued: string; longValued: string[] }> = {
  watch: { valued: 'nq', longValued: ['interval', 'equexit'] },
};

/** What {@link stripWrappers} found: the wrappers in order, the words of the command they run, and
 * the `env -S` string when one was given (then `rest` is empty). */
export interface Stripped {
  wrappers: string[];
  rest: Word[];
  splitString: string | null;
  /** Variables the wrappers set for the command (`env X=1 cmd`). */
  assigns: [string, string][];
  /** Valued options the wrappers were given: wrapper, option as written, value (`strace -o F`). */
  options: [string, string, string][];
}

/** Strips the wrappers in front of a command (at most 16): `sudo -u root env X=1 nice -n 5 rm …`
 * runs `rm …`. A wrapper alone (`sudo -l`, `env`) is the command itself. */
export function stripWrappers(words: Word[]): Stripped {
  const wrappers: string[] = [];
  const assigns: [string, string][] = [];
  const options: [string, string, string][] = [];
  let rest = words;
  let splitString: string | null = null;
  for (let guard = 0; guard < 16 && rest.length > 1; guard++) {
    const name = baseName(rest[0]!.text);
    let i = 1;
    if (name === 'env') {
      while (i < rest.length) {
        const t = rest[i]!.text;
        if (t === '--') { i++; break; }
        if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) { const eq = t.indexOf('='); assigns.push([t.slice(0, eq), t.slice(eq + 1)]); i++; continue; }
        if (t === '-u' || t === '-C' || t === '--unset' || t === '--chdir') { i += 2; continue; }
        if (t === '-S' || t === '--split-string') { splitString = rest[i + 1]?.text ?? ''; i = rest.length; break; }
        if (t.startsWith('-S')) { splitString = t.slice(2); i = rest.length; break; }
        if (t.startsWith('--split-string=')) { splitString = t.slice(15); i = rest.length; break; }
        if (t.startsWith('-')) { i++; continue; }
        break;
      }
    } else if (name === 'command' && rest[1] && /^-[a-zA-Z]*[vV]/.test(rest[1].text)) {
      break;
    } else if ((name === 'flock' || name === 'runuser') && rest.some((w) => w.text === '-c' || w.text.startsWith('--command'))) {
      break; // `flock FILE -c CMD`, `runuser -l U -c CMD`: a carrier (expandCarrier)
    } else if ((name === 'taskset' || name === 'chrt') && rest.some((w) => /^-[a-zA-Z]*p$|^--pid$/.test(w.text))) {
      break; // an existing process, no command
    } else if (WRAPPERS[name]) {
      const spec = WRAPPERS[name];
      while (i < rest.length) {
        const t = rest[i]!.text;
        if (t === '--') { i++; break; }
        if (t.startsWith('--')) {
          const key = t.slice(2).split('=')[0]!;
          const valued = spec.longValued?.includes(key);
          if (valued) options.push([name, `--${key}`, t.includes('=') ? t.slice(t.indexOf('=') + 1) : (rest[i + 1]?.text ?? '')]);
          i += valued && !t.includes('=') ? 2 : 1;
          continue;
        }
        if (name === 'nice' && /^-\d+$/.test(t)) { i++; continue; }
        if (t.startsWith('-') && t.length > 1) {
          const letters = t.slice(1);
          const vi = [...letters].findIndex((ch) => spec.valued.includes(ch));
          if (vi >= 0) options.push([name, `-${letters[vi]}`, vi === letters.length - 1 ? (rest[i + 1]?.text ?? '') : letters.slice(vi + 1)]);
          i += vi >= 0 && vi === letters.length - 1 ? 2 : 1;
          continue;
        }
        break;
      }
      i += spec.positional ?? 0;
    } else {
      break;
    }
    if (splitString !== null) {
      wrappers.push(name);
      rest = [];
      break;
    }
    if (i >= rest.length) break; // the wrapper alone is the command (`sudo -l`, `env`, `exec 5<>…`)
    wrappers.push(name);
    rest = rest.slice(i);
  }
  return { wrappers, rest, splitString, assigns, options };
}

/**
 * Builtins that change what later words of the line mean: `cd`/`pushd` (the working directory,
 * when it can be known), `alias n=text`, `set -- args` (positional parameters),
 * `printf -v var …`, `read var… <<< text`; and a call of a function defined earlier in the line
 * (its body is analysed with the call's arguments as `$1`, `$2`, …).
 */
export function applyBuiltin(cmd: ShellCommand, ctx: Ctx): void {
  const args = cmd.argv.slice(1);
  const literal = !cmd.words.some((w) => w.dynamic);
  switch (cmd.name) {
    case 'cd':
    case 'pushd': {
      const target = args.filter((a) => !/^-[LPe@]+$/.test(a))[0] ?? '~';
      const cwd = ctx.env.get(CWD);
      if (!literal || target === '-') ctx.env.delete(CWD);
      else if (target.startsWith('/') || target === '~' || target.startsWith('~/')) ctx.env.set(CWD, normalizePath(target));
      else if (cwd !== undefined) ctx.env.set(CWD, normalizePath(`${cwd}/${target}`));
      else ctx.env.delete(CWD);
      return;
    }
    case 'alias':
      for (const a of args) {
        const eq = a.indexOf('=');
        if (eq > 0) ctx.aliases.set(a.slice(0, eq), a.slice(eq + 1));
      }
      return;
    case 'set': {
      const dd = args.indexOf('--');
      const params = dd >= 0 ? args.slice(dd + 1) : args[0] !== undefined && !/^[-+]/.test(args[0]) ? args : null;
      if (params !== null && literal) {
        const env = positionalEnv(ctx.env, ctx.env.get('0') ?? null, params);
        ctx.env.clear();
        for (const [k, v] of env) ctx.env.set(k, v);
      }
      return;
    }
    case 'printf': {
      const v = args.indexOf('-v');
      if (v >= 0 && args[v + 1]) {
        if (literal) ctx.env.set(args[v + 1]!, printfOutput(args.slice(v + 2)));
        else ctx.env.delete(args[v + 1]!);
      }
      return;
    }
    case 'read': {
      const names: string[] = [];
      let array: string | null = null;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a === '-a') array = args[++i] ?? null;
        else if (/^-[dinNptu]$/.test(a)) i++;
        else if (!a.startsWith('-')) names.push(a);
      }
      const input = cmd.stdin?.split('\n')[0];
      if (input === undefined) {
        for (const n of [...names, array ?? '']) ctx.env.delete(n);
        return;
      }
      const fields = input.trim().split(/[ \t]+/);
      if (array) ctx.env.set(array, fields.join(IFS_MARK));
      if (names.length === 0 && !array) names.push('REPLY');
      names.forEach((n, i) => ctx.env.set(n, i === names.length - 1 ? fields.slice(i).join(' ') : (fields[i] ?? '')));
      return;
    }
    default: {
      const body = ctx.funcs.get(cmd.name);
      if (body !== undefined && !cmd.argv[0]!.includes('/')) ctx.run.enter(body, ctx, `function ${cmd.name}`, positionalEnv(ctx.env, ctx.env.get('0') ?? null, args));
    }
  }
}

/** Finds the script a carrier runs and analyses it as nested commands. */
export function expandCarrier(cmd: ShellCommand, ctx: Ctx): void {
  const { name, argv } = cmd;
  // past MAX_DEPTH the payloads are still handed to enter(), which lists them as unparsed instead of reading them
  for (const [text, via] of commandValues(cmd)) ctx.run.enter(text, ctx, via);
  const written = writtenFileRun(cmd, ctx);
  if (written !== null) ctx.run.enter(written, ctx, 'written file');
  if (SHELLS.has(name)) {
    const script = shellScriptArg(argv);
    if (script !== null) {
      // `sh -c 'rm -rf "$1"' _ /`: the words after the script are $0, $1, …
      const after = argv.slice(argv.lastIndexOf(script) + 1);
      ctx.run.enter(script, ctx, `${name} -c`, positionalEnv(ctx.env, after[0] ?? null, after.slice(1)));
    } else if (cmd.stdin !== null && shellReadsStdin(cmd)) ctx.run.enter(cmd.stdin, ctx, `${name} stdin`);
    return;
  }
  if (INTERPRETERS.test(name)) {
    // os.system('…'), subprocess.run([…]), open(P,'w'), shutil.rmtree(P), execSync('…'), fs.rmSync(P) → shell;
    // Python and JavaScript are read from their syntax tree, the others by idiom patterns
    const code = interpreterCode(name, argv) ?? (cmd.stdin !== null && readsCodeFromStdin(cmd) ? cmd.stdin : null) ?? writtenScript(cmd, ctx);
    if (code !== null) runInterpreterCode(cmd, code, ctx);
    return;
  }
  const runner = LINE_RUNNERS[name];
  if (runner) {
    const o = operandsAfterOptionsLong(argv.slice(1), runner.valued, runner.longValued);
    if (o.length) ctx.run.enter(o.join(' '), ctx, name);
    return;
  }
  switch (name) {
    case 'flock':
    case 'runuser':
    case 'script':
    case 'sg': {
      // flock FILE -c CMD, runuser -l U -c CMD, script -c CMD FILE, sg GROUP -c CMD / sg GROUP CMD
      const i = argv.findIndex((a, k) => k > 0 && (a === '-c' || a === '--command'));
      if (i > 0 && argv[i + 1] !== undefined) ctx.run.enter(argv[i + 1]!, ctx, `${name} -c`);
      const eq = argv.find((a) => a.startsWith('--command='));
      if (eq) ctx.run.enter(eq.slice(10), ctx, `${name} -c`);
      if (name === 'sg' && i < 0 && argv.length > 2 && !argv[1]!.startsWith('-')) ctx.run.enter(argv.slice(2).join(' '), ctx, 'sg');
      return;
    }
    case 'eval':
      ctx.run.enter(argv.slice(1).join(' '), ctx, 'eval');
      return;
    case 'cmd':
    case 'cmd.exe': {
      // `cmd /c LINE`, `cmd /s /k LINE` (cmd: https://learn.microsoft.com/windows-server/administration/windows-commands/cmd):
      // the rest is a cmd.exe line, whose backslashes are path separators, never escapes
      const i = argv.findIndex((a, k) => k > 0 && /^\/[ck]$/i.test(a));
      if (i > 0 && argv[i + 1] !== undefined) ctx.run.enter(argv.slice(i + 1).join(' ').replace(/\\/g, '\\\\'), ctx, 'cmd /c');
      return;
    }
    case 'trap': {
      // `trap [--] ACTION SIGNAL…`: ACTION is a command line this shell runs on the signal or at
      // exit (bash(1) SHELL BUILTIN COMMANDS, trap: https://www.gnu.org/software/bash/manual/bash.html#index-trap);
      // `-` and '' reset or ignore, `-l`/`-p` list
      const a = argv.slice(1).filter((x) => x !== '--');
      if (a.length >= 2 && !/^-[lpP]$/.test(a[0]!) && a[0] !== '-' && a[0]!.trim() !== '') ctx.run.enter(a[0]!, ctx, 'trap');
      return;
    }
    case 'su': {
      const i = argv.findIndex((a, k) => k > 0 && (a === '-c' || a === '--command'));
      if (i > 0 && argv[i + 1] !== undefined) ctx.run.enter(argv[i + 1]!, ctx, 'su -c');
      const eq = argv.find((a) => a.startsWith('--command='));
      if (eq) ctx.run.enter(eq.slice(10), ctx, 'su -c');
      return;
    }
    case 'ssh': {
      const rest = operandsAfterOptions(argv.slice(1), 'bcDEeFIiJLlmOoPpQRSWw');
      if (rest.length > 1) ctx.run.enter(rest.slice(1).join(' '), ctx, 'ssh');
      return;
    }
    case 'xargs':
    case 'parallel': {
      const inner = name === 'xargs' ? xargsCommand(cmd.words) : parallelCommand(cmd.words);
      if (name === 'parallel') {
        // `parallel ::: 'rm -rf /'`: with no command, each argument is a command line;
        // `parallel CMD {} ::: a b`: each argument replaces {} (or is appended)
        const args = parallelArguments(cmd.words);
        if (inner.length === 0) for (const a of args.slice(0, MAX_FED)) ctx.run.enter(a, ctx, 'parallel :::');
        else if (args.length) for (const a of args.slice(0, MAX_FED)) launch(cmd, inner, [a], ctx, name);
        if (inner.length === 0 || args.length) return;
      }
      if (inner.length) {
        const sub: Ctx = { ...ctx, depth: ctx.depth + 1, via: name, launcher: name };
        ctx.run.makeCommand(inner, [], cmd.span, sub, name);
      }
      return;
    }
    case 'plink': {
      // PuTTY's plink [options] HOST COMMAND…: like ssh, the rest is a command line run remotely
      const rest = afterPlinkOptions(argv.slice(1));
      if (rest.length > 1) ctx.run.enter(rest.slice(1).join(' '), ctx, 'plink');
      return;
    }
    case 'find': {
      for (const inner of findExecCommands(cmd.words)) {
        const sub: Ctx = { ...ctx, depth: ctx.depth + 1, via: 'find -exec', launcher: 'find' };
        ctx.run.makeCommand(inner, [], cmd.span, sub, 'find');
      }
      return;
    }
    default: {
      // `docker exec C rm -rf /`, `kubectl exec POD -- rm -rf /`: the command a container runner starts
      const { inner, via } = containerCommand(cmd.words, name);
      if (inner.length) {
        const sub: Ctx = { ...ctx, depth: ctx.depth + 1, via };
        ctx.run.makeCommand(inner, [], cmd.span, sub, null);
      }
      return;
    }
  }
}

/** One way a program starts a command inside a container, pod or VM: the subcommand words that do
 * it (`exec`, `run`, `compose exec`), the options that take a value (the program's global ones
 * too, which may come before the subcommand), and where the command is: after `--` (`dashDash`:
 * kubectl, lxc, incus, multipass; `needDashDash`: only there, as `kubectl run NAME … -- CMD`), or
 * after the container, image or service operand. */
interface RunnerSpec {
  sub: readonly string[];
  valued: ReadonlySet<string>;
  dashDash: boolean;
  needDashDash?: boolean;
}

/** Global options that take a value, before the subcommand, of docker(1) ("Options": `-H`,
 * `--context`, `--config`, `--log-level`, the TLS files), podman(1) ("Global Options": `--url`,
 * `--connection`, `--identity`, `--root`, `--runroot`, `--storage-driver`, …; `--remote`/`-r` takes
 * none), nerdctl (`--namespace`, `--address`, `--snapshotter`, `--data-root`, …) and containerd's
 * ctr(8) (`--address`, `--namespace`, `--timeout`). One list for all four: the spellings do not clash. */
const DOCKER_GLOBAL = ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey', '--url', '--connection', '--identity', '--root', '--runroot', '--storage-driver', '--storage-opt', '--cgroup-manager', '--tmpdir', '--events-backend', '--hooks-dir', '--network-cmd-path', '--network-config-dir', '--cni-config-dir', '--conmon', '--runtime', '--runtime-flag', '--volumepath', '--imagestore', '--module', '--ssh', '--out', '--registries-conf', '--db-backend', '--namespace', '-n', '--address', '-a', '--snapshotter', '--cni-path', '--cni-netconfpath', '--data-root', '--host-gateway-ip', '--hosts-dir', '--bridge-ip', '--timeout', '--connect-timeout'];
const DOCKER_GLOBAL_SET: ReadonlySet<string> = new Set(DOCKER_GLOBAL);

/** Container CLIs whose global options {@link subcommandOf} skips. */
const CONTAINER_CLIS = new Set(['docker', 'podman', 'nerdctl', 'ctr']);

/**
 * The subcommand of a container CLI and the arguments after it, its global options (and their
 * values) skipped wherever they stand before it: `docker -H tcp://h:2375 run …`, `docker --context
 * prod run …`, `podman --remote run …`, `ctr -n k8s.io run …` are all `run`. The management form
 * `docker container run|create|exec` is the same subcommand. Null for another program, or when no
 * subcommand follows.
 */
export function subcommandOf(name: string, argv: readonly string[]): { sub: string; args: string[] } | null {
  if (!CONTAINER_CLIS.has(name)) return null;
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '--') i += DOCKER_GLOBAL_SET.has(argv[i]!) ? 2 : 1;
  if (argv[i] === '--') i++;
  if (argv[i] === 'container' && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) i++;
  const sub = argv[i];
  return sub === undefined ? null : { sub, args: argv.slice(i + 1) };
}
/** `docker exec` options that take a value (docker-exec(1), podman-exec(1)). */
const DOCKER_EXEC = ['-e', '--env', '-u', '--user', '-w', '--workdir', '--env-file', '--detach-keys', '--preserve-fd'];
/** `docker run` / `docker create` options that take a value (docker-run(1), podman-run(1)). */
const DOCKER_RUN = [...DOCKER_EXEC, '-v', '--volume', '-p', '--publish', '--name', '--network', '--net', '--entrypoint', '--mount', '-m', '--memory', '--cpus', '--cpu-shares', '--platform', '-l', '--label', '-h', '--hostname', '--add-host', '--cap-add', '--cap-drop', '--device', '--gpus', '--log-driver', '--log-opt', '--restart', '--ulimit', '--security-opt', '--tmpfs', '--dns', '--pid', '--ipc', '--uts', '--userns', '--shm-size', '--link', '--cidfile', '--runtime', '--stop-signal', '--stop-timeout', '--pull', '--volumes-from', '-a', '--attach', '--group-add', '--health-cmd', '--expose', '--label-file', '--network-alias', '--ip', '--mac-address', '--cgroupns', '--cgroup-parent', '--storage-opt', '--sysctl', '--isolation', '--pod', '--secret', '--arch', '--os'];
/** `docker compose exec/run` options that take a value, and compose's own before the subcommand
 * (docker compose --help: -f, -p, --profile, --env-file, --project-directory). */
const COMPOSE = ['-f', '--file', '-p', '--project-name', '--profile', '--env-file', '--project-directory', '--ansi', '--progress', '-e', '--env', '-u', '--user', '-w', '--workdir', '--index', '-v', '--volume', '--name', '--entrypoint', '-l', '--label', '--publish', '--pull'];
/** kubectl's global options that take a value, and those of `exec`/`run`/`debug` (`kubectl … --help`). */
const KUBECTL = ['-c', '--container', '-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server', '--token', '--as', '--as-group', '--request-timeout', '--pod-running-timeout', '-f', '--filename', '--image', '--restart', '--env', '--labels', '-l', '--port', '--overrides', '--image-pull-policy', '--target', '--profile', '--copy-to', '--serviceaccount', '--annotations', '-o', '--output', '--timeout', '--field-manager'];

const docker = (extra: readonly string[] = []): RunnerSpec[] => [
  ...[['exec'], ['container', 'exec']].map((sub) => ({ sub, valued: new Set([...DOCKER_GLOBAL, ...DOCKER_EXEC, ...extra]), dashDash: false })),
  ...[['run'], ['container', 'run']].map((sub) => ({ sub, valued: new Set([...DOCKER_GLOBAL, ...DOCKER_RUN, ...extra]), dashDash: false })),
  ...[['compose', 'exec'], ['compose', 'run']].map((sub) => ({ sub, valued: new Set([...DOCKER_GLOBAL, ...COMPOSE]), dashDash: false })),
];
const kubectl: RunnerSpec[] = [
  { sub: ['exec'], valued: new Set(KUBECTL), dashDash: true },
  { sub: ['run'], valued: new Set(KUBECTL), dashDash: true, needDashDash: true },
  { sub: ['debug'], valued: new Set(KUBECTL), dashDash: true, needDashDash: true },
];
const lxc: RunnerSpec[] = [{ sub: ['exec'], valued: new Set(['--env', '--user', '--group', '--cwd', '--project']), dashDash: true }];

/**
 * Programs that run a command inside a container, pod or VM, as data (docker-exec(1),
 * docker-run(1), `docker compose exec|run --help`, podman-exec(1), podman-run(1), `kubectl exec|run|debug
 * --help`, `lxc exec --help`, `multipass exec --help`): the command they start is inspected like
 * one typed here (`kubectl exec POD -- sh -c '…'`, `docker run --rm IMAGE sh -c '…'`, `docker
 * compose exec web sh -c '…'`, `kubectl run x --image=alpine -- sh -c '…'`).
 */
const CONTAINER_RUNNERS: Record<string, RunnerSpec[]> = {
  docker: docker(),
  podman: docker(),
  nerdctl: docker(),
  'docker-compose': [['exec'], ['run']].map((sub) => ({ sub, valued: new Set(COMPOSE), dashDash: false })),
  'podman-compose': [['exec'], ['run']].map((sub) => ({ sub, valued: new Set(COMPOSE), dashDash: false })),
  kubectl,
  oc: kubectl,
  lxc,
  incus: lxc,
  multipass: [{ sub: ['exec'], valued: new Set(['-d', '--working-directory']), dashDash: true }],
};

/** The words of the command a container runner starts (`docker exec -it c sh -c …` → `sh -c …`),
 * or none. Options before and between the subcommand words are skipped (`kubectl -n ns exec …`,
 * `docker compose -f x.yml exec …`); an unknown operand there means another subcommand. */
function containerCommand(words: Word[], name: string): { inner: Word[]; via: string } {
  for (const spec of CONTAINER_RUNNERS[name] ?? []) {
    const inner = runnerCommand(words, spec);
    if (inner.length) return { inner, via: `${name} ${spec.sub.join(' ')}` };
  }
  return { inner: [], via: '' };
}

function runnerCommand(words: Word[], spec: RunnerSpec): Word[] {
  // the subcommand words, options (and their values) skipped around them
  let i = 1;
  for (const w of spec.sub) {
    while (i < words.length && words[i]!.text.startsWith('-') && words[i]!.text !== '--') i += spec.valued.has(words[i]!.text) ? 2 : 1;
    if (words[i]?.text !== w) return [];
    i++;
  }
  const dd = words.findIndex((w, k) => k >= i && w.text === '--');
  if (spec.dashDash && dd > 0) return words.slice(dd + 1);
  if (spec.needDashDash) return [];
  while (i < words.length && words[i]!.text.startsWith('-') && words[i]!.text !== '--') i += spec.valued.has(words[i]!.text) ? 2 : 1;
  // `docker exec C CMD…`, `docker run IMAGE CMD…`; kubectl's legacy `kubectl exec POD CMD…` the same
  const rest = words.slice(i + 1);
  return rest[0]?.text === '--' ? rest.slice(1) : rest;
}

/** plink(1)'s options that take a value (PuTTY manual, "Using the command-line connection tool Plink"). */
const PLINK_VALUED = new Set(['-l', '-pw', '-P', '-i', '-m', '-L', '-R', '-D', '-hostkey', '-sercfg', '-proxycmd', '-load', '-sshlog', '-sshrawlog', '-pwfile']);

/** The operands of a plink command (host first, then the remote command's words); plink takes
 * its options before and after the host, up to the command. */
function afterPlinkOptions(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (out.length < 2 && a.startsWith('-')) {
      if (PLINK_VALUED.has(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** The `-c` script of a shell invocation (`bash -lc 'x'` → `x`), or null. */
export function shellScriptArg(argv: string[]): string | null {
  let sawC = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return sawC ? (argv[i + 1] ?? null) : null;
    if (/^-[a-zA-Z]+$/.test(a)) {
      if (a.includes('c')) sawC = true;
      continue;
    }
    if (/^[-+]o$/.test(a)) { i++; continue; }
    if (a.startsWith('--')) continue;
    return sawC ? a : null;
  }
  return null;
}

/** True when a shell's options say it only reads its script, running nothing: `-n`, `--noexec`,
 * `-o noexec` (a syntax check). */
export function shellNoExec(args: readonly string[]): boolean {
  return args.some((a, i) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a) || a === '--noexec' || (a === '-o' && args[i + 1] === 'noexec'));
}

/** True when a shell takes its script from stdin and runs it: no `-c`, no script operand (or
 * `-s`/`-`), no syntax-check option ({@link shellNoExec}). */
export function shellReadsStdin(cmd: ShellCommand): boolean {
  if (!SHELLS.has(cmd.name)) return false;
  const args = cmd.argv.slice(1);
  if (shellNoExec(args)) return false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-' || a === '-s' || /^-[a-zA-Z]*s[a-zA-Z]*$/.test(a)) return !args.some((x) => /^-[a-zA-Z]*c/.test(x));
    if (/^-[a-zA-Z]+$/.test(a)) {
      if (a.includes('c')) return false;
      continue;
    }
    if (/^[-+]o$/.test(a)) { i++; continue; }
    if (a.startsWith('--')) continue;
    return false;
  }
  return true;
}

/** Operands after the options, for a command with valued short letters and long names. */
function operandsAfterOptionsLong(args: string[], valued: string, longValued: string[]): string[] {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '--') return args.slice(i + 1);
    if (a.startsWith('--')) {
      i += longValued.includes(a.slice(2)) ? 2 : 1;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      i += a.length === 2 && valued.includes(a[1]!) ? 2 : 1;
      continue;
    }
    break;
  }
  return args.slice(i);
}

function operandsAfterOptions(args: string[], valued: string): string[] {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '--') return args.slice(i + 1);
    if (a.startsWith('-') && a.length > 1) {
      const last = a[a.length - 1]!;
      i += a.length === 2 && valued.includes(last) ? 2 : 1;
      continue;
    }
    break;
  }
  return args.slice(i);
}

/**
 * Index of the first word after the options of a command runner (`xargs`, `parallel`): options in
 * `valued` take the next word as their value; `--` ends the options.
 */
function afterOptions(words: Word[], valued: ReadonlySet<string>): number {
  let i = 1;
  while (i < words.length) {
    const t = words[i]!.text;
    if (t === '--') return i + 1;
    if (!t.startsWith('-')) break;
    i += valued.has(t) ? 2 : 1;
  }
  return i;
}

const XARGS_VALUED: ReadonlySet<string> = new Set(['-I', '-J', '-R', '-S', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--eof', '--process-slot-var']);
const PARALLEL_VALUED: ReadonlySet<string> = new Set(['-j', '--jobs', '-S', '--sshlogin', '-a', '--arg-file', '-d', '--delimiter', '-I', '--joblog', '--results', '--tmpdir', '-n', '-N', '-L', '--timeout', '--retries']);

function xargsCommand(words: Word[]): Word[] {
  return words.slice(afterOptions(words, XARGS_VALUED));
}

function parallelCommand(words: Word[]): Word[] {
  const i = afterOptions(words, PARALLEL_VALUED);
  const end = words.findIndex((w, k) => k >= i && (w.text === ':::' || w.text === '::::' || w.text === ':::+'));
  return words.slice(i, end < 0 ? words.length : end);
}

/** find(1) primaries that only steer the walk, not select files: with nothing else before
 * `-exec`, a start point itself is among the files `{}` names. */
const FIND_WALK_OPTIONS = /^-(?:maxdepth|mindepth)$|^-(?:xdev|mount|depth|follow|L|H|P|noleaf|ignore_readdir_race|daystart|print|print0)$/;

/** What `{}` stands for in a find command's `-exec` (at most 4 start points): each start point
 * itself when no test selects files (`find ~/.ssh/id_rsa -exec cat {} \;`), or a file the first
 * `-name` pattern names under it (`find /var/log -name 'system.log*' -exec rm {} \;` runs
 * `rm /var/log/system.log*`); null when a start point is only known at run time or other tests
 * select the files. */
function findExecItems(words: Word[], execAt: number): string[] | null {
  const starts: string[] = [];
  let i = 1;
  for (; i < execAt; i++) {
    const w = words[i]!;
    if (w.text.startsWith('-') || w.text === '(' || w.text === '!') break;
    if (w.dynamic) return null;
    starts.push(w.text);
  }
  if (starts.length === 0) starts.push('.');
  let name: string | null = null;
  for (; i < execAt; i++) {
    const t = words[i]!.text;
    if (/^-(?:maxdepth|mindepth)$/.test(t)) { i++; continue; }
    if (FIND_WALK_OPTIONS.test(t)) continue;
    if ((t === '-name' || t === '-iname') && name === null && words[i + 1] && !words[i + 1]!.dynamic) { name = words[++i]!.text; continue; }
    if (t === '-type') { i++; continue; }
    return null;
  }
  return starts.slice(0, 4).map((p) => (name === null ? p : `${p.replace(/\/+$/, '')}/${name}`));
}

function findExecCommands(words: Word[]): Word[][] {
  const out: Word[][] = [];
  for (let i = 1; i < words.length; i++) {
    const t = words[i]!.text;
    if (t === '-exec' || t === '-execdir' || t === '-ok' || t === '-okdir') {
      let j = i + 1;
      while (j < words.length && words[j]!.text !== ';' && words[j]!.text !== '+') j++;
      const inner = words.slice(i + 1, j);
      const items = t === '-exec' || t === '-ok' ? findExecItems(words, i) : null;
      if (items && inner.some((w) => w.text.includes('{}'))) for (const item of items) out.push(inner.map((w) => (w.text.includes('{}') ? { ...w, text: w.text.split('{}').join(item) } : w)));
      else out.push(inner);
      i = j;
    }
  }
  return out;
}

/** Most input lines fed to one `xargs`/`parallel` command, and most `:::` arguments followed. */
const MAX_FED = 8;

/** The arguments after `:::` (and `:::+`) of a parallel command. */
function parallelArguments(words: Word[]): string[] {
  const i = words.findIndex((w) => w.text === ':::' || w.text === ':::+');
  return i < 0 ? [] : words.slice(i + 1).filter((w) => !/^:::\+?$|^::::$/.test(w.text)).map((w) => w.text);
}

/** The replace string of an `xargs` (`-I R`, `-J R` of BSD xargs, `-i` for `{}`) or `parallel` command, or null. */
function replaceString(words: Word[], name: string): string | null {
  for (let i = 1; i < words.length; i++) {
    const t = words[i]!.text;
    if (t === '-I' || t === '-J' || t === '--replace') return words[i + 1]?.text ?? null;
    if (/^-[IJ].+/.test(t)) return t.slice(2);
    if (t === '-i' || t.startsWith('--replace=')) return t.startsWith('--replace=') ? t.slice(10) || '{}' : '{}';
    if (!t.startsWith('-')) break;
  }
  return name === 'parallel' ? '{}' : null;
}

/** Runs a launcher's command on some input items: each replaces the replace string, or the items
 * are appended (`xargs rm -rf` fed `/`). */
function launch(cmd: ShellCommand, inner: Word[], items: string[], ctx: Ctx, name: string): void {
  const repl = replaceString(cmd.words, name);
  const sub: Ctx = { ...ctx, depth: ctx.depth + 1, via: `${name} input`, launcher: name };
  if (repl !== null && inner.some((w) => w.text.includes(repl))) {
    for (const item of items) ctx.run.makeCommand(inner.map((w) => ({ ...w, text: w.text.split(repl).join(item) })), [], cmd.span, sub, name);
  } else {
    ctx.run.makeCommand([...inner, ...items.map((t) => plainWord(t))], [], cmd.span, sub, name);
  }
}

/**
 * An `xargs` or `parallel` stage whose input is known (`echo 'rm -rf /' | xargs -I{} bash -c {}`):
 * its command is built again with the input lines (at most {@link MAX_FED}) in place of the replace
 * string, or appended as arguments (split on blanks without a replace string, as xargs does).
 */
export function feedLauncher(cmd: ShellCommand, input: string, ctx: Ctx): void {
  const inner = cmd.name === 'xargs' ? xargsCommand(cmd.words) : parallelCommand(cmd.words);
  const lines = input.split('\n').filter((l) => l.trim() !== '');
  if (inner.length === 0) {
    if (cmd.name === 'parallel') for (const l of lines.slice(0, MAX_FED)) ctx.run.enter(l, ctx, 'parallel input');
    return;
  }
  const repl = replaceString(cmd.words, cmd.name);
  const items = repl !== null ? lines.slice(0, MAX_FED) : lines.join(' ').trim().split(/\s+/).slice(0, 64);
  launch(cmd, inner, items, ctx, cmd.name);
}

/** Command names a glob in a command word is compared with (`/usr/bin/[r]m` is rm, `/bin/[b]ash` bash). */
const GLOB_NAMES = [...SHELLS, 'rm', 'curl', 'wget', 'nc', 'ncat', 'socat', 'python', 'python3', 'perl', 'ruby', 'php', 'node', 'chmod', 'chown', 'dd', 'cat', 'base64', 'openssl', 'ssh', 'scp', 'crontab', 'sudo', 'env', 'busybox', 'mkfs', 'shred', 'find', 'xargs', 'tee', 'cp', 'mv'];

/**
 * The name a command word runs: its basename (`/usr/bin/rm` → `rm`; a Windows path's last
 * component, lower-cased, without `.exe`/`.com`: `C:\Windows\System32\certutil.exe` →
 * `certutil`); a glob in the name that matches exactly one well-known command is that command
 * (`/*\/r[m]` → `rm`); `$SHELL` is the user's shell, `sh`.
 */
export function commandNameOf(word: Word): string {
  const text = word.text;
  if (word.dynamic && /^\$\{?SHELL\}?$/.test(text)) return 'sh';
  let name = baseName(text.replace(/\\/g, '/'));
  if (/\.(?:exe|com)$/i.test(name) && /[A-Za-z]/.test(name)) name = name.slice(0, -4).toLowerCase();
  if (hasGlob(name)) {
    const m = globMatches(name, GLOB_NAMES);
    if (m.length === 1) return m[0]!;
  }
  return name;
}

/** Environment variables whose value a program runs as a command line (git(1) GIT_SSH_COMMAND,
 * GIT_EDITOR, GIT_PAGER, GIT_EXTERNAL_DIFF; PAGER, MANPAGER, EDITOR, VISUAL, LESSOPEN of less(1),
 * SSH_ASKPASS; bash's PROMPT_COMMAND). */
const COMMAND_VARIABLES = new Set(['CRASHPAGER', 'SYSTEMD_PAGER', 'PSQL_PAGER', 'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_PAGER', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'PAGER', 'MANPAGER', 'EDITOR', 'VISUAL', 'LESSOPEN', 'LESSCLOSE', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'PROMPT_COMMAND', 'BROWSER']);
/** git configuration keys whose value is a command (git-config(1); an alias starting with `!` is a shell line). */
const GIT_COMMAND_KEYS = /^(?:core\.(?:sshcommand|pager|editor|fsmonitor|askpass)|sequence\.editor|diff\.external|credential\.helper|alias\.[^=]+|pager\.[^=]+|gpg\.program|uploadpack\.packobjectshook)$/i;

/** The key and value a `git config` command line sets (its options skipped; `set`, `--add`,
 * `--replace-all` forms), or null for a read, an unset or a list. */
function gitConfigSet(args: string[]): [string, string] | null {
  const ops: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^--(?:get|get-all|get-regexp|get-urlmatch|unset|unset-all|list|remove-section|rename-section|edit)$|^-[le]$/.test(a)) return null;
    if (a === '-f' || a === '--file' || a === '--blob' || a === '--type' || a === '--default' || a === '--comment') { i++; continue; }
    if (a.startsWith('-')) continue;
    ops.push(a);
  }
  if (ops[0] === 'set') ops.shift();
  else if (/^(?:get|unset|list|rename-section|remove-section|edit)$/.test(ops[0] ?? '')) return null;
  return ops.length >= 2 ? [ops[0]!, ops[1]!] : null;
}

/** The shell lines of makefile text: recipes (after `target: prereqs ;` or on tab-led lines, their
 * `@`/`-`/`+` prefixes dropped) and the commands of `$(shell …)` calls. */
function makeRecipes(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n/)) {
    const inline = /^[^:=#\t]*[^:=#\t\s][^:=#\t]*::?[^=;#]*;([\s\S]*)$/.exec(line);
    const recipe = inline ? inline[1]! : line.startsWith('\t') ? line.slice(1) : null;
    if (recipe !== null && recipe.trim()) out.push(recipe.replace(/^\s*[@+-]+/, ''));
  }
  for (const m of text.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)) if (m[1]!.trim()) out.push(m[1]!);
  return out;
}

/**
 * Command lines a program is told to run through its options or environment (each with how):
 * `git -c alias.x='!…'`, `git -c core.pager=…`, `GIT_SSH_COMMAND='…' git …`, `PAGER=… man`,
 * `ssh -o ProxyCommand=…`, `tar --checkpoint-action=exec=…` / `--to-command` / `-I`,
 * `vim -c ':!…'` (and `+…`, `--cmd`), `gdb -ex '!…'`/`shell …`, `rsync -e …`, `zip -TT …`,
 * `sed` `e` commands, `awk`'s `system(…)`, `wsl …`, `expect -c 'spawn …'`, `borg --rsh …`, m4's
 * `esyscmd(…)` fed on stdin.
 */
export function commandValues(cmd: ShellCommand): [string, string][] {
  const out: [string, string][] = [];
  const { name, argv } = cmd;
  for (const [k, v] of cmd.assigns) if ((COMMAND_VARIABLES.has(k) || /_(?:COMMAND|CMD|RSH)$/.test(k)) && v.trim()) out.push([v.replace(/^\|/, '').replace(/%s/g, 'FILE'), `${k}=`]);
  const args = argv.slice(1);
  // Chromium/Electron launcher flags run a command line (`--gpu-launcher=…`, `--renderer-cmd-prefix=…`)
  for (const a of args) {
    const m = /^--(?:gpu-launcher|renderer-cmd-prefix|utility-cmd-prefix)=([\s\S]+)$/.exec(a);
    if (m) out.push([m[1]!, 'launcher flag']);
  }
  // options named for the command they run, in any program (`restic --password-command=…`,
  // `aria2c --on-download-error=…`, `dnsmasq --conf-script=…`, `sshfs -o ssh_command=…`)
  args.forEach((a, i) => {
    const m = /^--((?:[a-z0-9]+[-_])*(?:command|cmd)|on-[a-z-]+|conf-script)(?:=([\s\S]*))?$/.exec(a);
    const v = m ? (m[2] ?? (args[i + 1]?.startsWith('-') ? undefined : args[i + 1])) : undefined;
    if (m && v && !(name === 'tar' || name === 'flock' || name === 'runuser' || name === 'su' || name === 'script')) out.push([v, `--${m[1]}`]);
    const o = args[i - 1] === '-o' ? /(?:^|,)ssh_command=([^,]+)/.exec(a) : null;
    if (o) out.push([o[1]!, '-o ssh_command']);
  });
  // sysctl kernel.core_pattern=|CMD: the kernel runs CMD as root on every crash (core(5))
  if (name === 'sysctl') for (const a of args) {
    const m = /^kernel\.core_pattern\s*=\s*\|([\s\S]+)$/.exec(a);
    if (m) out.push([m[1]!, 'sysctl core_pattern']);
  }
  const valueOf = (i: number, a: string, opt: string): string | null => (a === opt ? (args[i + 1] ?? null) : a.startsWith(opt + '=') ? a.slice(opt.length + 1) : null);
  switch (name) {
    case 'git':
      for (let i = 0; i < args.length; i++) {
        const kv = args[i - 1] === '-c' ? args[i]! : '';
        const eq = kv.indexOf('=');
        if (eq > 0 && GIT_COMMAND_KEYS.test(kv.slice(0, eq))) {
          const v = kv.slice(eq + 1);
          const alias = /^alias\./i.test(kv);
          if (!alias || v.startsWith('!')) out.push([alias ? v.slice(1) : v, 'git -c']);
        }
        if (!args[i]!.startsWith('-') && args[i - 1] !== '-c' && args[i - 1] !== '-C') {
          // `git config [--global|--system|--file F …] [set] KEY VALUE`: the value runs on every later git
          // command that reads the key (git-config(1): https://git-scm.com/docs/git-config#_variables)
          if (args[i] === 'config') {
            const set = gitConfigSet(args.slice(i + 1));
            if (set !== null && GIT_COMMAND_KEYS.test(set[0])) {
              const [k, v] = set;
              const helper = /^(?:alias\.|credential\.helper$)/i.test(k);
              // an alias or credential helper is a shell line only after `!` (a helper also by absolute path);
              // core.fsmonitor takes a boolean for git's own daemon
              const boolean = /^(?:true|false|yes|no|on|off|[01])$/i.test(v.trim());
              if (!boolean && (!helper || v.startsWith('!') || (/^credential/i.test(k) && v.startsWith('/')))) out.push([v.replace(/^!/, ''), 'git config']);
            }
          }
          break;
        }
      }
      break;
    case 'ssh':
    case 'scp':
    case 'sftp':
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        const o = a === '-o' ? (args[i + 1] ?? '') : a.startsWith('-o') ? a.slice(2) : null;
        const m = o === null ? null : /^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand|RemoteCommand)\s*[= ]\s*([\s\S]+)$/i.exec(o);
        if (m) out.push([m[1]!, `${name} -o`]);
        // scp(1)/sftp(1) -S program: the ssh they run; sftp(1) -D: the sftp server run locally
        if ((a === '-S' || (name === 'sftp' && a === '-D')) && name !== 'ssh' && args[i + 1]) out.push([args[i + 1]!, `${name} ${a}`]);
      }
      break;
    case 'tar':
    case 'gtar':
    case 'bsdtar':
      args.forEach((a, i) => {
        const m = /^--checkpoint-action=(?:exec|sh)=([\s\S]+)$/.exec(a);
        if (m) out.push([m[1]!, 'tar --checkpoint-action']);
        for (const opt of ['--to-command', '--use-compress-program', '--info-script', '--new-volume-script']) {
          const v = valueOf(i, a, opt);
          if (v) out.push([v, `tar ${opt}`]);
        }
        if ((a === '-I' || a === '-F') && args[i + 1]) out.push([args[i + 1]!, `tar ${a}`]);
      });
      break;
    case 'vi':
    case 'vim':
    case 'nvim':
    case 'rvim':
    case 'view':
    case 'ex':
    case 'vimdiff':
      args.forEach((a, i) => {
        const c = a === '-c' || a === '--cmd' ? (args[i + 1] ?? null) : a.startsWith('+') && a.length > 1 ? a.slice(1) : null;
        if (c !== null) for (const t of editorCommands(c)) out.push([t, `${name} -c`]);
      });
      break;
    case 'gdb':
      args.forEach((a, i) => {
        if ((a === '-ex' || a === '--ex' || a === '-eval-command' || a === '--eval-command') && args[i + 1]) {
          const m = /^\s*(?:!|shell\s+)([\s\S]+)$/.exec(args[i + 1]!);
          if (m) out.push([m[1]!, 'gdb -ex']);
        }
      });
      break;
    case 'make':
    case 'gmake':
      // `make --eval=TEXT` / `-E TEXT` reads TEXT as makefile lines: a rule's recipe (after `;` on
      // its line, or a tab-led line) and `$(shell …)` run as shell commands (GNU make manual,
      // "Options Summary": https://www.gnu.org/software/make/manual/html_node/Options-Summary.html)
      args.forEach((a, i) => {
        const text = valueOf(i, a, '--eval') ?? (a === '-E' ? (args[i + 1] ?? null) : /^-E./.test(a) ? a.slice(2) : null);
        if (text !== null) for (const t of makeRecipes(text)) out.push([t, `${name} --eval`]);
      });
      break;
    case 'rsync':
      args.forEach((a, i) => {
        const e = a === '-e' ? (args[i + 1] ?? null) : null;
        const v = valueOf(i, a, '--rsh') ?? e ?? valueOf(i, a, '--rsync-path');
        if (v) out.push([v, 'rsync -e']);
      });
      break;
    // borg(1) --rsh: the ssh command it runs for a remote repository (BORG_RSH is caught as *_RSH below)
    case 'borg':
      args.forEach((a, i) => {
        const v = valueOf(i, a, '--rsh');
        if (v) out.push([v, 'borg --rsh']);
      });
      break;
    // m4(1) syscmd/esyscmd in the text fed on stdin (`echo 'esyscmd(CMD)' | m4`); a file given to m4 is config-hook-exec's
    case 'm4': {
      const script = cmd.stdin ?? (cmd.pipeline !== null && cmd.stage > 0 ? literalOutput(cmd.pipeline.stages, cmd.stage - 1) : null);
      for (const m of (script ?? '').matchAll(/\be?syscmd\(([^)]+)\)/g)) out.push([m[1]!, 'm4 syscmd']);
      break;
    }
    case 'zip':
      args.forEach((a, i) => {
        const v = a === '-TT' ? (args[i + 1] ?? null) : valueOf(i, a, '--unzip-command');
        if (v) out.push([v.replace(/#/g, ''), 'zip -TT']);
      });
      break;
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk': {
      // the program is the first operand (after -v/-F/-f values): system("…"), "cmd" | getline, print | "cmd"
      let i = 0;
      while (i < args.length && args[i]!.startsWith('-')) i += /^-[vFf]$/.test(args[i]!) ? 2 : 1;
      if (args[i] !== undefined && !args.slice(0, i).some((a) => a === '-f')) for (const t of interpreterShellTexts(args[i]!, 'awk')) out.push([t, 'awk system']);
      break;
    }
    case 'sed':
    case 'gsed':
      for (const t of sedCommands(args)) out.push([t, 'sed e']);
      break;
    case 'expect':
      args.forEach((a, i) => {
        if (a === '-c' && args[i + 1]) for (const m of args[i + 1]!.matchAll(/\bspawn\s+([^;\n]+)/g)) out.push([m[1]!, 'expect spawn']);
      });
      break;
    case 'wsl':
    case 'wsl.exe': {
      // wsl [options] [--exec|-e|--] CMD…: the rest runs in the Linux distribution
      let i = 0;
      while (i < args.length && /^-/.test(args[i]!) && !/^(?:-e|--exec|--)$/.test(args[i]!)) i += /^(?:-d|--distribution|-u|--user|--cd)$/.test(args[i]!) ? 2 : 1;
      if (/^(?:-e|--exec|--)$/.test(args[i] ?? '')) i++;
      if (i < args.length) out.push([args.slice(i).map(quoteForDisplay).join(' '), 'wsl']);
      break;
    }
    default:
      break;
  }
  return out.filter(([t]) => t.trim() !== '');
}

/** Shell lines an ex command runs (`:!cmd`, `!cmd`, `:sh`, `:shell`, `:terminal cmd`; a `|` separates
 * commands), for vim's `-c`. */
function editorCommands(c: string): string[] {
  const out: string[] = [];
  for (const part of c.split(/\|(?![^"']*["'])/)) {
    const t = part.trim().replace(/^:+/, '');
    const m = /^(?:!|r(?:ead)?\s*!|w(?:rite)?\s*!|ter(?:minal)?\s+)([\s\S]+)$/.exec(t);
    if (m) out.push(m[1]!);
    else if (/^sh(?:ell)?$/.test(t)) out.push('sh');
  }
  return out;
}

/** Shell lines a sed script runs: GNU sed's `e COMMAND` (alone or addressed, `1e …`) and the `e`
 * flag of `s///e` is left aside (it runs the pattern space, not known statically). */
function sedCommands(args: string[]): string[] {
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? '');
    else if (a.startsWith('--expression=')) scripts.push(a.slice(13));
    else if (a === '-f' || a === '--file') i++;
    else if (!a.startsWith('-') && scripts.length === 0) scripts.push(a);
  }
  const out: string[] = [];
  for (const s of scripts) for (const m of s.matchAll(/(?:^|[;\n])\s*(?:\d+|\$|\/[^/]*\/)?\s*e\s+([^;\n]+)/g)) out.push(m[1]!);
  return out;
}

const WRITE_REDIRECT = /^1?(?:>|>>|>\|)$|^&>>?$/;

/**
 * Records the literal text a command writes into a file (`echo '…' > /tmp/x`, `cat > x <<EOF`,
 * `printf … >> x`), for a later `. /tmp/x`, `sh /tmp/x` or `/tmp/x` in the same line.
 */
export function noteWrittenFile(cmd: ShellCommand, ctx: Ctx): void {
  const r = cmd.redirects.find((x) => WRITE_REDIRECT.test(x.op) && x.target && !x.target.startsWith('/dev/'));
  if (!r || cmd.words.some((w) => w.dynamic)) return;
  const text = literalOutput([cmd], 0);
  if (text === null) return;
  const path = normalizePath(r.target);
  const before = r.op.endsWith('>>') ? (ctx.files.get(path) ?? '') : '';
  if (ctx.files.size < 64) ctx.files.set(path, `${before}${text}\n`);
}

/** The text of a file written earlier in the line that this command runs: `. F`, `source F`,
 * `sh F`, `bash F`, or `F` as the command word; null otherwise. */
function writtenFileRun(cmd: ShellCommand, ctx: Ctx): string | null {
  if (ctx.files.size === 0) return null;
  const args = cmd.argv.slice(1);
  let file: string | undefined;
  if (cmd.name === '.' || cmd.name === 'source') file = args[0];
  else if (SHELLS.has(cmd.name) && shellScriptArg(cmd.argv) === null) file = args.find((a) => !a.startsWith('-'));
  else if (cmd.argv[0]?.includes('/')) file = cmd.argv[0];
  if (file === undefined) return null;
  const path = normalizePath(file.replace(/^\.\//, ''));
  return ctx.files.get(path) ?? ctx.files.get(normalizePath(file)) ?? null;
}

/** Inspects code an interpreter runs: Python and JavaScript from their syntax tree, the others by
 * idiom patterns; each process run, write and delete found is entered as a shell command. */
function runInterpreterCode(cmd: ShellCommand, code: string, ctx: Ctx): void {
  const name = cmd.name;
  const lang = codeLanguageOf(name);
  const facts = lang ? analyzeCode(lang, code) : null;
  if (facts) cmd.code = facts;
  const texts = facts ? factsAsShell(facts) : interpreterShellTexts(code, name);
  // PowerShell: its pipelines of cmdlets read close enough as shell commands (`"x" | Out-File F`)
  if (/^(?:pwsh|powershell)/i.test(name)) texts.push(code);
  for (const text of new Set(texts)) ctx.run.enter(text, ctx, `${name} code`);
}

/**
 * Literal text piped into an interpreter that reads its program from stdin is its program:
 * `echo "import os; os.system('…')" | python3`, `printf … | node` (python(1): "-" or no script
 * reads the program from standard input; node, ruby, perl, php and lua alike).
 */
export function feedInterpreter(cmd: ShellCommand, input: string, ctx: Ctx): void {
  if (!INTERPRETERS.test(cmd.name) || cmd.stdin !== null || interpreterCode(cmd.name, cmd.argv) !== null || !readsCodeFromStdin(cmd)) return;
  runInterpreterCode(cmd, input, ctx);
}

/** The text of a script written earlier in the line that an interpreter runs (`echo … > x.py;
 * python3 x.py`), or null. */
function writtenScript(cmd: ShellCommand, ctx: Ctx): string | null {
  if (ctx.files.size === 0) return null;
  const file = cmd.argv.slice(1).find((a) => !a.startsWith('-'));
  if (file === undefined) return null;
  return ctx.files.get(normalizePath(file.replace(/^\.\//, ''))) ?? ctx.files.get(normalizePath(file)) ?? null;
}

/** The grammar of an interpreter's code: Python for python and pypy, JavaScript for node, deno and bun. */
export function codeLanguageOf(name: string): CodeLanguage | null {
  if (/^(?:python[0-9.]*|pypy[0-9.]*|ipython3?)$/i.test(name)) return 'python';
  if (/^(?:node(?:js)?|deno|bun)$/i.test(name)) return 'javascript';
  return null;
}

/** True when an interpreter reads its program from stdin: no script operand, or `-` (`python - <<EOF`). */
function readsCodeFromStdin(cmd: ShellCommand): boolean {
  const args = cmd.argv.slice(1);
  for (const a of args) {
    if (a === '-' || a === '/dev/stdin') return true;
    if (/^-[cemr]$|^--eval$|^-Command$/i.test(a)) return false;
    if (a.startsWith('-')) continue;
    return false;
  }
  return true;
}
