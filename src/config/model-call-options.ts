/**
 * `model.callOptions` of `skillrt.config.json`: AI SDK call options every model call gets (sampling,
 * limits, headers, provider options), as JSON. The library's `callOptions` take the same names.
 */
import { z } from "zod";

/** JSON values of provider options (`{ "anthropic": { "thinking": { "type": "enabled", "budgetTokens": 2048 } } }`). */
const JsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(JsonValue),
    z.record(z.string(), JsonValue),
  ]),
);

/** The `model.callOptions` section. */
export const ModelCallOptions = z
  .object({
    temperature: z.number().optional(),
    topP: z.number().optional(),
    topK: z.number().optional(),
    presencePenalty: z.number().optional(),
    frequencyPenalty: z.number().optional(),
    seed: z.number().int().optional(),
    stopSequences: z.array(z.string()).max(16).optional(),
    /** Extra HTTP headers of every request to the provider. */
    headers: z.record(z.string(), z.string()).optional(),
    /** Per provider (`anthropic`, `openai`, …), options its package takes (`providerOptions` of the AI SDK). */
    providerOptions: z.record(z.string(), z.record(z.string(), JsonValue)).optional(),
  })
  .strict();
/** The `model.callOptions` section. */
export type ModelCallOptions = z.infer<typeof ModelCallOptions>;
