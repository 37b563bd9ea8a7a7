import { z } from 'zod';

/**
 * The ToolBench / StableToolBench answer file (docs/DESIGN.md, "Data formats" §4), only as far as the importer reads it.
 * Loose objects: the search tree and other fields are allowed and ignored.
 */

export const FunctionCallSchema = z.looseObject({ name: z.string(), arguments: z.string().nullish() });

export const MessageSchema = z.looseObject({
  role: z.string(),
  content: z.string().nullish(),
  name: z.string().optional(),
  function_call: FunctionCallSchema.nullish(),
});

export const OfferedFunctionSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  parameters: z.looseObject({}).nullish(),
});

export const AnswerFileSchema = z.looseObject({
  win: z.boolean().optional(),
  answer_generation: z.looseObject({
    valid_data: z.boolean().optional(),
    query: z.string().nullish(),
    final_answer: z.string().nullish(),
    finish_type: z.string().nullish(),
    function: z.array(OfferedFunctionSchema).nullish(),
    train_messages: z.array(z.array(MessageSchema)).nullish(),
  }),
});

export type AnswerFile = z.infer<typeof AnswerFileSchema>;
export type Message = z.infer<typeof MessageSchema>;
export type OfferedFunction = z.infer<typeof OfferedFunctionSchema>;
