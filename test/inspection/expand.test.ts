/**
 * Static expansion helpers (src/inspection/shell/expand.ts) and the shell text interpreter code
 * runs (src/inspection/shell/interp.ts), with the red-team inputs of issue 4.
 */
import { expect, test } from 'vitest';
import { expandBracesInText, globMatches, parseParameter, printfOutput, removeAffix } from '../../src/inspection/shell/expand.js';
import { interpreterShellTexts } from '../../src/inspection/shell/interp.js';

test('brace expansion of unquoted words only', () => {
  expect(expandBracesInText('{rm,-rf,/}')).toBe('rm -rf /');
  expect(expandBracesInText('rm -rf {/,}')).toBe('rm -rf / ');
  expect(expandBracesInText('rm -rf /{etc,usr}')).toBe('rm -rf /etc /usr');
  expect(expandBracesInText('cat ~/.ssh/{id_rsa,config}')).toBe('cat ~/.ssh/id_rsa ~/.ssh/config');
  expect(expandBracesInText('echo x{1..3}y')).toBe('echo x1y x2y x3y');
  expect(expandBracesInText('echo {a,b{c,d}}')).toBe('echo a bc bd');
  // quoted, parameter expansion, substitution, a lone brace: not expansions
  expect(expandBracesInText(`awk '{print $1,$2}' f`)).toBeNull();
  expect(expandBracesInText('echo "${a:-x,y}" "{a,b}"')).toBeNull();
  expect(expandBracesInText('find . -exec rm {} \\;')).toBeNull();
  expect(expandBracesInText('f() { echo a,b; }')).toBeNull();
  // more than 64 words: left as written
  expect(expandBracesInText('echo {1..9}{1..9}')).toBeNull();
});

test('parameter expansion parts, affix removal, printf, globs', () => {
  expect(parseParameter('X:-/')).toEqual({ name: 'X', index: null, op: ':-', arg: '/' });
  expect(parseParameter('a[@]')).toEqual({ name: 'a', index: '@', op: null, arg: '' });
  expect(parseParameter('HOME%/*')).toEqual({ name: 'HOME', index: null, op: '%', arg: '/*' });
  expect(parseParameter('#x')).toEqual({ name: 'x', index: null, op: 'len', arg: '' });
  expect(parseParameter('x/a/b')).toBeNull();
  expect(removeAffix('/home/user', '%', '/*')).toBe('/home');
  expect(removeAffix('a/b/c', '%%', '/*')).toBe('a');
  expect(removeAffix('a/b/c', '#', '*/')).toBe('b/c');
  expect(removeAffix('a/b/c', '##', '*/')).toBe('c');
  expect(printfOutput(['rm'])).toBe('rm');
  expect(printfOutput(['%s -%s\\n', 'rm', 'rf'])).toBe('rm -rf\n');
  expect(printfOutput(['%s\\n', 'a', 'b'])).toBe('a\nb\n');
  expect(globMatches('/e*c', ['/etc', '/usr'])).toEqual(['/etc']);
  expect(globMatches('/[e]tc', ['/etc'])).toEqual(['/etc']);
  expect(globMatches('/?tc', ['/etc'])).toEqual(['/etc']);
  expect(globMatches('/t*', ['/etc', '/usr'])).toEqual([]);
});

test('shell text that interpreter code runs', () => {
  expect(interpreterShellTexts("import base64,os;os.system(base64.b64decode('cm0gLXJmIC8='))")).toEqual(['rm -rf /']);
  expect(interpreterShellTexts('system("rm -rf /")')).toEqual(['rm -rf /']);
  expect(interpreterShellTexts("require('child_process').execSync('rm -rf /')")).toEqual(['rm -rf /']);
  expect(interpreterShellTexts("import subprocess; subprocess.run(['rm', '-rf', '/'])")).toEqual(['rm -rf /']);
  expect(interpreterShellTexts('system("rm", "-rf", "/tmp/x y")')).toEqual(["rm -rf '/tmp/x y'"]);
  expect(interpreterShellTexts('import shutil; shutil.rmtree("/")')).toEqual(['rm -rf -- /']);
  expect(interpreterShellTexts("import shutil,os; shutil.rmtree(os.path.expanduser('~'))")).toEqual(['rm -rf -- ~']);
  expect(interpreterShellTexts("require('fs').rmSync('/etc', {recursive: true})")).toEqual(['rm -rf -- /etc']);
  expect(interpreterShellTexts('print(`date`)')).toEqual(['date']);
  expect(interpreterShellTexts('print("hello"); x = os.getcwd()')).toEqual([]);
  expect(interpreterShellTexts('os.system(cmd)')).toEqual([]);
});

test('argv forms of process calls: a name then a list, Python os.exec*(file, argv), a call on an expression', () => {
  expect(interpreterShellTexts("require('child_process').spawnSync('rm',['-rf','/'])")).toEqual(['rm -rf /']);
  expect(interpreterShellTexts("import os;os.execvp('rm',['rm','-rf','/'])")).toEqual(['rm -rf /']);
  expect(interpreterShellTexts("__import__('os').system('rm -rf /')")).toEqual(['rm -rf /']);
  expect(interpreterShellTexts("spawn('git', ['status'])")).toEqual(['git status']);
});
