/** Edit plans: the schema an optimizer answers in, and the pure function that applies a plan. */
export * from './edit-schema.js';
export {
  applyEditPlan,
  applyEditPlanOrThrow,
  describeEdit,
  editLabel,
  type ApplyEditPlanOptions,
  type ApplyEditPlanResult,
  type EditPlanError,
} from './apply-edit-plan.js';
