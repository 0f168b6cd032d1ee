/**
 * Files of a new skill (`skillrt init`): relative path → content. The SKILL.md passes strict
 * validation for a valid `name` and a `description` of 1–1024 characters.
 */
export function skillTemplate(name: string, description: string): Record<string, string> {
  const title = name
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
  return {
    "SKILL.md": `---
name: ${name}
description: ${JSON.stringify(description)}
---

# ${title}

<!-- The body is what the agent reads after it loads this skill. Keep it under ~500 lines and
     5,000 tokens; move details into references/ and link them below. -->

## When to use

Use this skill when … (describe the tasks, inputs and keywords that should make an agent pick it).

## Instructions

1. First step.
2. Second step. Run \`scripts/example.sh <args>\` when … (paths are relative to this skill's folder).
3. Check the result: …

## Resources

- \`scripts/example.sh\`: a small script the agent can run.
- \`references/REFERENCE.md\`: details to read only when needed.
- \`assets/\`: templates and other files the skill uses as they are.
`,
    "scripts/example.sh": `#!/usr/bin/env sh
# Example script of the ${name} skill. Replace it with the real work.
set -eu
echo "${name}: called with: $*"
`,
    "references/REFERENCE.md": `# ${title} reference

Details the agent reads on demand (API notes, formats, edge cases). Link each file from SKILL.md
and say when to read it.
`,
    "assets/.gitkeep": "",
    "evals/cases.yaml": `# Trigger evals: does the agent load ${name} when it should, and only then?
# Run: skillrt eval evals/cases.yaml --root ..   (add --selector lexical to check search without a model)
- name: a request this skill is for
  prompt: "Write a request the way a user would, without naming the skill."
  expect: [${name}]
- name: a nearby request it is not for
  prompt: "Write a request that sounds close but needs something else."
  forbid: [${name}]
`,
  };
}
