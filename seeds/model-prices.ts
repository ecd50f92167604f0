/**
 * What the node pays per model, in USD per million tokens, from the providers' published price
 * lists. The ledger prices each call from it; `LLM_PRICES` adds models or corrects a price without
 * a release. A model missing from both is recorded at $0 with pricing `unknown`, and spend
 * ceilings cannot bound it: name its price in `LLM_PRICES`.
 */
import type { ModelPrice } from "../extensions/models/contract/records.ts"

export const modelPrices: Readonly<Record<string, ModelPrice>> = {
  "gpt-5": { input: 1.25, output: 10 },
  "gpt-5-mini": { input: 0.25, output: 2 },
  "gpt-5-nano": { input: 0.05, output: 0.4 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  o3: { input: 2, output: 8 },
  "o4-mini": { input: 1.1, output: 4.4 },
  "text-embedding-3-small": { input: 0.02, output: 0 },
  "text-embedding-3-large": { input: 0.13, output: 0 },
  // Image generation is billed in tokens too: text in, image out.
  "gpt-image-1": { input: 5, output: 40 },
  // Transcription is billed by the minute of audio heard.
  "gpt-4o-mini-transcribe": { input: 0, output: 0, perMinute: 0.003 },
  "gpt-4o-transcribe": { input: 0, output: 0, perMinute: 0.006 },
  "whisper-1": { input: 0, output: 0, perMinute: 0.006 },
  // Speech is billed by the character of text spoken. gpt-4o-mini-tts bills tokens, which OpenAI
  // estimates at $0.015 a minute of speech: about $15 a million characters at 1,000 characters a minute.
  "tts-1": { input: 0, output: 0, perMillionCharacters: 15 },
  "tts-1-hd": { input: 0, output: 0, perMillionCharacters: 30 },
  "gpt-4o-mini-tts": { input: 0, output: 0, perMillionCharacters: 15 },
  // Video is billed by the second of video made.
  "sora-2": { input: 0, output: 0, perVideoSecond: 0.1 },
  "sora-2-pro": { input: 0, output: 0, perVideoSecond: 0.3 }
}
