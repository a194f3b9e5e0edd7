/**
 * A miniature broken consumer, to prove the consumer checks bite (STYLE: every check is shown to
 * fail on a deliberately broken subject). It does what hand-rolled consumers of `claude -p
 * --output-format stream-json` get wrong: it takes the FIRST StructuredOutput tool input it sees
 * (a progress message, if one comes first), ignores the exit code and `is_error`, reports no usage,
 * and has no deadline.
 *
 * Usage: node naive-adapter.mjs <schema-file> <prompt-file> <outcome-file>
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [schemaFile, promptFile, outFile] = process.argv.slice(2);
const schema = readFileSync(schemaFile, 'utf8');
const child = spawn('claude', ['-p', '--output-format', 'stream-json', '--verbose', '--json-schema', schema], { stdio: ['pipe', 'pipe', 'inherit'] });
child.stdin.end(readFileSync(promptFile, 'utf8'));
let stdout = '';
child.stdout.on('data', (d) => (stdout += d));
child.on('close', () => {
  for (const line of stdout.split('\n')) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      continue;
    }
    if (message?.type !== 'assistant' || !Array.isArray(message.message?.content)) continue;
    for (const block of message.message.content) {
      let value;
      if (block.type === 'tool_use' && block.name === 'StructuredOutput') value = block.input;
      else if (block.type === 'text') {
        try {
          value = JSON.parse(block.text);
        } catch {
          continue;
        }
      }
      if (value && typeof value === 'object') {
        writeFileSync(outFile, JSON.stringify({ kind: 'object', value, consumer: 'naive-adapter' }));
        return;
      }
    }
  }
  writeFileSync(outFile, JSON.stringify({ kind: 'empty', consumer: 'naive-adapter' }));
});
