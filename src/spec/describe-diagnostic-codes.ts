/** A one-line meaning for every {@link DiagnosticCode}, for documentation and `--explain` style output. */
import type { DiagnosticCode } from "./types.js";

/** Code → one-line meaning. Complete: the type checker fails when a code is missing. */
export const describeDiagnosticCodes: Readonly<Record<DiagnosticCode, string>> = {
  "path-not-found": "The path given does not exist.",
  "not-a-directory": "The path given is a file, not a skill directory.",
  "skill-file-missing": "The directory has no SKILL.md (nor skill.md).",
  "frontmatter-missing": "SKILL.md does not start with a '---' frontmatter block (or is empty).",
  "frontmatter-unclosed": "The frontmatter has no closing '---'.",
  "frontmatter-offset": "Blank lines or HTML comments precede the opening '---' (lenient: skipped).",
  "yaml-invalid":
    "The frontmatter is not YAML the parser accepts (strict: also flow collections, anchors, tags, tabs, duplicate keys).",
  "frontmatter-not-mapping": "The frontmatter is empty, a list or a scalar, not a mapping of fields.",
  "name-missing": "No `name` field.",
  "name-empty": "`name` is empty or blank.",
  "name-too-long": "`name` is longer than 64 characters (code points, after NFKC).",
  "name-not-lowercase": "`name` has uppercase letters.",
  "name-hyphen-edge": "`name` starts or ends with a hyphen.",
  "name-consecutive-hyphens": "`name` contains '--'.",
  "name-invalid-characters": "`name` has characters other than letters, digits and hyphens.",
  "name-directory-mismatch": "`name` differs from the directory name (compared after NFKC).",
  "description-missing": "No `description` field.",
  "description-empty": "`description` is empty or blank.",
  "description-too-long": "`description` is longer than 1024 characters.",
  "compatibility-invalid-type": "`compatibility` is a list or mapping, not a string.",
  "compatibility-too-long": "`compatibility` is longer than 500 characters.",
  "unknown-field":
    "Top-level keys outside name, description, license, compatibility, metadata, allowed-tools (lenient: kept as extras).",
  "yaml-repaired":
    "Lenient: a value YAML could not read (unquoted ': ', tab indentation) was quoted and re-read.",
  "yaml-flow-collection":
    "Lenient: a flow list or map ([a, b], {k: v}) was accepted; strict validators reject it.",
  "duplicate-key": "Lenient: a key appears twice in one mapping; the last value wins.",
  "trigger-pattern-unsupported":
    "Lenient: `triggerPattern` is invalid, over 500 characters, or needs backtracking (backreferences, lookaround); it never matches.",
  "bom-stripped": "Lenient: a UTF-8 byte-order mark at the start was ignored.",
  "crlf-normalized": "Lenient: CRLF line endings were read as LF.",
  "encoding-invalid": "The file is not valid UTF-8; invalid bytes became U+FFFD.",
  "name-from-directory": "Lenient: `name` was missing or empty; the directory name is used.",
  "description-from-body": "Lenient: `description` was missing or empty; the body's first paragraph is used.",
  "field-invalid-type": "A field has the wrong type (e.g. `metadata` not a mapping, `license` a list).",
  "body-separator":
    "The body opens with a second '---' block of 'key: value' lines; kept, but some parsers misread it.",
  "file-unreadable": "SKILL.md could not be read (permissions, I/O error, or it is a directory).",
  "file-binary": "SKILL.md looks like binary data, not Markdown.",
  "file-too-large": "SKILL.md is larger than the 1 MiB limit.",
  "symlink-broken": "A symbolic link points nowhere.",
  "symlink-loop": "Symbolic links form a loop.",
  "watch-polling":
    "Too many folders to watch (or the system watch limit hit): changes are picked up by polling.",
  "requirements-unmet":
    "The skill declares requirements (metadata.*.requires, required_environment_variables) this machine does not meet; the message names them.",
  "lock-drift":
    "A skill's files no longer hash to the computedHash skills-lock.json records (edited after install), or a locked skill is not installed; an error with validate --lock.",
  "depth-limit": "Discovery stopped at the maximum directory depth.",
  "scan-limit": "Discovery stopped after scanning the maximum number of directories.",
  "name-shadowed": "A skill with the same name in a higher-precedence scope hides this one.",
  "name-duplicate": "Two skills in the same scope have the same name; the first found wins.",
  "plugin-manifest-invalid":
    "A plugin or marketplace manifest (plugin.json, marketplace.json) could not be read or is not a JSON object; the skills below it keep their own names.",
  "root-fetch-failed":
    "A remote or archive root could not be fetched (the URL and HTTP status, a git error, a size cap); the other roots are still read.",
  "root-digest-mismatch":
    "A root's content does not have the SHA-256 its `#sha256=` pin names; it was refused.",
  "archive-entry-rejected":
    "An archive entry is unsafe (absolute, `..` or `:` in its name, a link or special file, over a size cap); the archive was refused.",
  "agent-field-ignored":
    "An agent file sets a Claude Code field skillrt has no equivalent for (permissionMode, color, hooks, …): it is ignored, and the message names it.",
};
