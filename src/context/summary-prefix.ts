/** The mark of a compaction's summary message, shared by the compactor and the history shaper. */

/** Marks the summary message so a later compaction folds it in again. */
export const SUMMARY_PREFIX = "[Summary of the earlier conversation]";
