/**
 * The weights of argument filling (fill-args.ts), in one place. A value found in the request scores
 *   `queryValue.shape × shape fit + queryValue.cueWord × cue fit + queryValue.knownValue × [a recurring value]
 *    + queryValue.nameNextToValue × [the parameter's name stands next to it] + request share`
 *   (+ `knownInQueryBonus` for a recurring value found in another form, + `clauseFocusBonus` inside
 *   the call's clause).
 * A value found in an upstream output scores
 *   `outputValue.shape × shape fit + outputValue.key × key fit + outputValue.outputShare × upstream share
 *    + outputValue.recencyStep × (position − last) + outputValue.namedResult × [the call's clause names
 *    this result among the earlier ones] + outputValue.namedItem × [the clause names the list item it is in]`.
 * Shape fit: the hint's share of values with the value's shape (0 for another shape of a family the
 * hint lists, no candidate for a family it does not), the name/type prior without a hint. Cue fit:
 * the largest share among the hint's cue words next to the value. Key fit: the hint's share for the
 * output key, or `keyNamedOnly` for a key named like the parameter. Request / upstream
 * share: 1 when the hint names that source, 0 when it names another, the `…WithoutHint` share
 * without one.
 */
export const FILL_WEIGHTS = {
  /** Minimum score for a found value to beat the fallbacks. */
  minScore: 1.2,
  /** Added to a request value inside the clause that speaks about this call. */
  clauseFocusBonus: 2,
  queryValue: {
    shape: 2,
    cueWord: 2,
    knownValue: 1.5,
    knownSaturation: 2,
    nameNextToValue: 1.5,
    knownInQueryBonus: 0.5,
  },
  outputValue: {
    shape: 2,
    shapeWithoutHint: 0.3,
    key: 2.5,
    keyNamedOnly: 0.8,
    exampleKeyShare: 0.8,
    outputShare: 2,
    recencyStep: 0.1,
    /** Added to the value of the one earlier result the call's clause names among several (under a key it holds once). */
    namedResult: 0.3,
    /** Added to a value from the list item the call's clause names. */
    namedItem: 1,
  },
  /** The known share a value the tool's schema documents counts as (it is no recurring value of the records). */
  documentedShare: 0.5,
  /** The usual value scores `scale × its share × (baseline + the share of values from neither request nor output)`. */
  constant: { scale: 3.2, baseline: 0.35 },
  queryShareWithoutHint: 0.5,
  outputShareWithoutHint: 0.3,
  /** Subtracted per earlier use of the same found value by another parameter. */
  reusePenalty: 0.8,
  /** An optional parameter judged set with at least `minPresence` and given no value takes its usual value when that has `minShare`. */
  optionalUsual: { minPresence: 0.7, minShare: 0.5 },
  /** No value from outside the call's clause for an optional parameter judged set under `maxPresence` whose values came from the request at least `minQueryShare`, nor for any parameter whose values came from it less than `seldomQueryShare`. */
  outsideClause: { maxPresence: 0.7, minQueryShare: 0.8, seldomQueryShare: 0.5 },
  /** An optional parameter judged unset but at least `minPresence`, from the request at least `minQueryShare`, is set when a value in the call's clause scores `minScore`. */
  strongValue: { minPresence: 0.1, minQueryShare: 0.5, minScore: 5.5 },
  /** presence.ts: the probability of a named parameter without a hint, the cap on word evidence and the step a named parameter gets (log-odds), the most a combination may cost. */
  presence: { namedWithoutHint: 0.6, maxEvidence: 2, namedLogOdds: 1, maxComboCost: 3 },
} as const;
