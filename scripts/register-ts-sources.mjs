// Lets a script import skillrt's TypeScript sources directly: Node (≥ 23.6) strips the types but does not
// map the sources' `.js` import specifiers to their `.ts` files. Import this module first, for its effect.
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (specifier.startsWith(".") && specifier.endsWith(".js"))
        return next(`${specifier.slice(0, -3)}.ts`, context);
      throw error;
    }
  },
});
