/**
 * The tuned weights of argument filling, in one place. A candidate's score is a weighted sum; the
 * weights were tuned on D_opt of the bundled domains and are pinned by the G0 TC test
 * (test/bench/offline-g0-pin.test.ts): an intended change updates that pin and says why.
 *
 * A value found in the query scores
 *   `queryValue.shape × shape share + queryValue.cueWord × cue share
 *    + queryValue.knownValue × min(1, queryValue.knownSaturation × known share)
 *    + queryValue.nameNextToValue × [the parameter's name stands next to it] + query share`
 *   (+ `queryValue.knownInQueryBonus` for a recorded value found verbatim, + `clauseFocusBonus` inside
 *   the call's clause), damped by the novelty factor when the value was never recorded.
 * A value found in an upstream output scores
 *   `outputValue.shape × shape share + outputValue.key × max(key share, outputValue.keyNamedOnly × [key named like the parameter])
 *    + outputValue.outputShare × output share + outputValue.recencyStep × (position − last)`.
 * The usual (constant) value scores `constant.scale × its share × (constant.baseline + share from neither)`.
 */
export const FILL_WEIGHTS = {
  /** Minimum score for a found value to beat the fallbacks. */
  minScore: 1.2,
  /**
   * Added to a query value inside the clause that speaks about this call: more than a cue word's
   * full weight short of certainty (mean G0 TC, bundled domains, seeds 0-2, D_opt / D_val: 1.2 gave
   * 0.469 / 0.389, 2 gives 0.481 / 0.405, every domain up on both; 2.5 and 3 no better on D_opt).
   */
  clauseFocusBonus: 2,
  queryValue: {
    /** × the share of the parameter's recorded values with the value's shape (or the name/type prior without records). */
    shape: 2,
    /** × the share of query-sourced values that had this cue word next to them. */
    cueWord: 2,
    /** × min(1, knownSaturation × the share of recorded values equal to this one). */
    knownValue: 1.5,
    knownSaturation: 2,
    /** When the parameter's name (or the value's role word) stands next to the value. */
    nameNextToValue: 1.5,
    /** A recorded value of the parameter found verbatim in the query (a lower-case enumeration). */
    knownInQueryBonus: 0.5,
  },
  outputValue: {
    /** × the share of recorded values with the value's shape. */
    shape: 2,
    /** The shape share assumed when the parameter has no recorded values. */
    shapeWithoutRecords: 0.3,
    /** × the share of the parameter's recorded values that came from this output key. */
    key: 2.5,
    /** The key share credited to an output key named like the parameter. */
    keyNamedOnly: 0.8,
    /** × the share of the parameter's values that came from an earlier output. */
    outputShare: 2,
    /** Per output before the most recent (older outputs score less). */
    recencyStep: 0.1,
  },
  constant: {
    /** × the usual value's share × (baseline + the share of values from neither query nor outputs). */
    scale: 3.2,
    baseline: 0.35,
  },
  /** Source shares assumed without records: from the query, from an earlier output. */
  queryShareWithoutRecords: 0.5,
  outputShareWithoutRecords: 0.3,
  /** A parameter that nearly always took one value needs strong evidence for another: a never-recorded value is damped by 1 − noveltyDamping × the usual value's share (with at least noveltyMinRecords values set). */
  noveltyDamping: 0.8,
  noveltyMinRecords: 3,
  /**
   * A found value whose shape family the parameter never took, in at least this many recorded values,
   * is no candidate (a required parameter with no other value then has none: no call is made).
   */
  shapeGateMinRecords: 2,
  /** Subtracted per earlier use of the same found value by another parameter. */
  reusePenalty: 0.8,
  /** A required parameter left without a value takes other tools' usual value of its name when at least this share of them took it. */
  sharedUsualMinShare: 0.5,
  /**
   * An optional parameter judged set with at least `minPresence` (presence.ts) that no found value
   * reaches takes its usual value when that is at least `minShare` of its recorded values (mean G0
   * TC on D_val, bundled domains, seeds 0-2: 0.406 without; presence 0.5 / 0.6 / 0.7 / 0.8 / 0.9 gave
   * 0.411 / 0.412 / 0.413 / 0.412 / 0.410; share 0.3 / 0.5 / 0.7 at presence 0.7 gave 0.413 / 0.413 / 0.412).
   */
  optionalUsual: { minPresence: 0.7, minShare: 0.5 },
  /**
   * An optional parameter judged set with presence under `maxPresence`, whose recorded values came
   * from the request at least `minQueryShare` of the time, takes no value the request wrote outside
   * the clause that asks for the call. Mean G0 TC on D_val, bundled domains, seeds 0-2, G0 evaluated
   * alone: 0.4389 without; 0.4430 at 0.7 and 0.8 (0.9 the same); presence 0.6 / 0.8 gave 0.4397 /
   * 0.4409, query share 0.5 / 0.7 gave 0.4409; every presence (1.1) gave 0.4385.
   */
  outsideClause: { maxPresence: 0.7, minQueryShare: 0.8 },
  /**
   * An optional parameter judged unset with at least `minPresence`, whose recorded values came from
   * the request at least `minQueryShare` of the time, is set when a value in the clause that asks
   * for the call scores at least `minScore` for it, whatever the recurring combinations. 5.5 is more
   * than the value's shape, its source and the clause give (2 + 1 + 2): a cue word or the
   * parameter's name beside it must add. Mean G0 TC on D_val, bundled domains, seeds 0-2, G0
   * evaluated alone: 0.4326 without; 0.4373 at presence 0.1 and score 5, 0.4389 at 5.01 to 5.5,
   * 0.4338 at 5.8 and 6; presence 0.05 / 0.2 (score 5) gave 0.4353 / 0.4367; deciding it before the
   * combinations instead of after gave 0.4347.
   */
  strongValue: { minPresence: 0.1, minQueryShare: 0.5, minScore: 5.5 },
} as const;
