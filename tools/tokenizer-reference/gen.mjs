// Writes the token ids that Hugging Face's JavaScript implementation (@huggingface/transformers: its tokenizers and
// its Jinja) gives for the chat requests and texts of cases.json, for the gateway's parity test.
//   npm install --ignore-scripts && node gen.mjs <model dir with tokenizer.json> <reference.json to write>
import fs from 'node:fs';
import path from 'node:path';
import { env, AutoTokenizer } from '@huggingface/transformers';

const here = path.dirname(new URL(import.meta.url).pathname);
const version = (p) => JSON.parse(fs.readFileSync(`${here}/node_modules/${p}/package.json`, 'utf8')).version;
const [modelDir, output] = process.argv.slice(2);
env.allowRemoteModels = false;
env.localModelPath = path.dirname(path.resolve(modelDir)) + '/';
const tokenizer = await AutoTokenizer.from_pretrained(path.basename(path.resolve(modelDir)));
const ids = (text) => Array.from(tokenizer.encode(text, { add_special_tokens: false }), Number);

const cases = JSON.parse(fs.readFileSync(`${here}/cases.json`, 'utf8'));
const chat = cases.chat.map((c) => {
  const add_generation_prompt = c.add_generation_prompt ?? true;
  const text = tokenizer.apply_chat_template(c.messages, { tools: c.tools, add_generation_prompt, tokenize: false });
  return { ...c, add_generation_prompt, text, ids: ids(text) };
});
const texts = cases.texts.map((text) => ({ text, ids: ids(text) }));
const reference = `@huggingface/transformers@${version('@huggingface/transformers')} (tokenizers: `
  + `@huggingface/tokenizers@${version('@huggingface/tokenizers')}, chat template: `
  + `@huggingface/jinja@${version('@huggingface/jinja')}): apply_chat_template, then encode without special tokens`;
fs.writeFileSync(output, JSON.stringify({ reference, chat, texts }, null, 1) + '\n', 'utf8');
console.log(`${chat.length} chat cases and ${texts.length} texts written to ${output}`);
