/** A model whose every call carries a sampling seed, for providers that support one (others ignore it). */
import { type LanguageModel, wrapLanguageModel } from "ai";

/**
 * `model` with `seed` set on each call (the arms of an outcome eval sample alike where the provider allows).
 * A model given by id string is returned as it is (the SDK resolves those itself, without middleware).
 */
export function withSeed(model: LanguageModel, seed: number): LanguageModel {
  if (typeof model === "string") return model;
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      transformParams: async ({ params }) => ({ ...params, seed }),
    },
  });
}
