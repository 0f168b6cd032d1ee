/**
 * `${env:NAME}` references in configured values (MCP server `env` and `headers`), replaced by host
 * variables: secrets stay out of the config file and out of the model's context.
 */

/** The values with references replaced, and the names of referenced variables that are unset. */
export interface SubstitutedValues {
  values: Record<string, string>;
  /** `key` → the unset variable it referenced (the key is then left out of `values`). */
  missing: Record<string, string>;
  /** The host values put in for references: secrets, redacted from anything the model or the user sees. */
  secrets: string[];
}

/** Replaces `${env:NAME}` in every value; a value referencing an unset variable is left out and reported. */
export function substituteEnvRefs(
  raw: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): SubstitutedValues {
  const result: SubstitutedValues = { values: {}, missing: {}, secrets: [] };
  for (const [key, text] of Object.entries(raw)) {
    let missing: string | undefined;
    const value = text.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const v = env[name];
      if (v === undefined) missing ??= name;
      else if (v !== "") result.secrets.push(v);
      return v ?? "";
    });
    if (missing === undefined) result.values[key] = value;
    else result.missing[key] = missing;
  }
  return result;
}
