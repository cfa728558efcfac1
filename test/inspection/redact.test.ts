/** redactSecrets masks provider keys, private key blocks and passwords; keys are built at run time. */
import { describe, expect, test } from 'vitest';
import { findSecrets, redactSecrets } from '../../src/inspection/index.js';

const j = (...p: string[]) => p.join('');

describe('redactSecrets', () => {
  test.each([
    ['anthropic', j('sk-ant-api03-', 'A'.repeat(40)), 'sk-ant-a***'],
    ['openai', j('sk-proj-', 'B'.repeat(40)), 'sk-proj-***'],
    ['github', j('ghp_', 'C'.repeat(36)), 'ghp_CCCC***'],
    ['aws', j('AKIA', 'D'.repeat(16)), 'AKIAD***'],
    ['google', j('AIza', 'E'.repeat(35)), 'AIzaEEEE***'],
    ['slack', j('xoxb-', '1'.repeat(30)), 'xoxb-111***'],
    ['huggingface', j('hf_', 'F'.repeat(34)), 'hf_FFFFF***'],
  ])('%s key', (_kind, key, masked) => {
    expect(redactSecrets(`export KEY=${key} && run`)).toBe(`export KEY=${masked} && run`);
  });

  test('password in a URL', () => {
    expect(redactSecrets('git clone https://bob:hunter2secret@git.example/r.git')).toBe('git clone https://bob:***@git.example/r.git');
  });

  test('private key block', () => {
    const pem = j('-----BEGIN OPENSSH ', 'PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH ', 'PRIVATE KEY-----');
    expect(redactSecrets(`echo "${pem}" > k`)).toBe('echo "-----BEGIN PRIVATE KEY----- *** (redacted)" > k');
  });

  test('password= assignment and bearer token', () => {
    expect(redactSecrets('mysql --password=Sup3rS3cret -h db')).toBe('mysql --password=Su*** -h db');
    expect(redactSecrets('-H "Authorization: Bearer abcdefghijklmnopqrstuvwxyz"')).toBe('-H "Authorization: Bearer abcdef***"');
  });

  test('text without secrets is unchanged', () => {
    expect(redactSecrets('curl -s https://api.example.com/v1/items | jq .')).toBe('curl -s https://api.example.com/v1/items | jq .');
  });
});

test('findSecrets names the provider of an Anthropic key once', () => {
  expect(findSecrets(j('x sk-ant-api03-', 'A'.repeat(30))).map((s) => s.pattern.kind)).toEqual(['anthropic']);
});
