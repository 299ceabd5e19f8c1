/** The evaluation's face to the position (its own module: pattern-eval.ts implements it and position.ts uses both). */
/** Scores a position for the side to move from its discs (`p`) and the opponent's (`o`). */
export interface Evaluator {
  evaluate(pl: number, ph: number, ol: number, oh: number): number;
  /**
   * The same value from the pattern indices the position keeps incrementally (patterns.ts packedIndices:
   * Black's view and the occupancy of the INSTANCE_COUNT instances at `at`; `side` is the side to move)
   * and the side to move's legal moves (ml, mh).
   * An evaluator that has it makes the position keep the indices.
   */
  evaluateIndexed?(
    indices: Int32Array,
    at: number,
    side: number,
    empties: number,
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    ml: number,
    mh: number,
  ): number;
}
