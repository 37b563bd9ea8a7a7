import { describe, expect, it } from 'vitest';
import type { ToolHint, Workflow } from '../../src/graph/schema.js';
import { validateWorkflow } from '../../src/graph/validate.js';
import { executeWorkflow } from '../../src/runtime/execute.js';
import { createScriptedPolicy } from '../../src/testing/scripted-policy.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * Grounding says where a value came from; a step's hint says what its parameter's values look like.
 * Found on real runs: a flight number (`HAT072`) the run had seen in a user's details went out as a
 * reservation id. With the hint a search learns (`ParamHint.shapes`: reservation ids of six
 * capitals, `code`), the run withholds an identifier of another shape, however grounded, in reads
 * and writes alike; a reservation id of the learned shape goes out. The tools answer made-up data
 * shaped as an airline's customer service tools answer it.
 */

const USER = {
  user_id: 'mia_li_3668',
  reservations: ['NOXJPW', 'AIXCDP'],
  upcoming_flights: [{ flight_number: 'HAT072', date: '2025-05-16', origin: 'JFK', destination: 'SEA' }],
};

function tools(made: Array<[string, Record<string, unknown>]>) {
  const note =
    (tool: string, answer: unknown) =>
    (args: Record<string, unknown>): unknown => {
      made.push([tool, args]);
      return answer;
    };
  const idParam = (name: string) => ({ type: 'object', properties: { [name]: { type: 'string' } }, required: [name] });
  return createToolRegistry([
    defineTool({
      name: 'get_user_details',
      description: "Get a user's profile, reservations and upcoming flights.",
      effect: 'read',
      inputSchema: idParam('user_id'),
      execute: note('get_user_details', USER),
    }),
    defineTool({
      name: 'get_reservation_details',
      description: 'Get the details of a reservation.',
      effect: 'read',
      inputSchema: idParam('reservation_id'),
      execute: note('get_reservation_details', { status: 'confirmed' }),
    }),
    defineTool({
      name: 'cancel_reservation',
      description: 'Cancel a whole reservation.',
      effect: 'write',
      inputSchema: idParam('reservation_id'),
      execute: note('cancel_reservation', { status: 'cancelled' }),
    }),
  ]);
}

const HINTS: ToolHint[] = ['get_reservation_details', 'cancel_reservation'].map((tool) => ({
  tool,
  uses: 24,
  params: { reservation_id: { from: { upstream: 1 }, keys: { reservations: 1 }, shapes: { code: 1 } } },
}));

function workflow(hints: ToolHint[] | undefined): Workflow {
  return planToolAnswer({
    name: 'Airline desk',
    tool: {
      id: 'desk',
      task: "Handle the customer's reservation",
      tools: ['get_user_details', 'get_reservation_details', 'cancel_reservation'],
      calls: 'many',
      ...(hints ? { hints } : {}),
    },
  });
}

async function run(wf: Workflow, tool: string, reservation: string) {
  const made: Array<[string, Record<string, unknown>]> = [];
  const policy = createScriptedPolicy({
    tool: () => [
      { tool: 'get_user_details', args: { user_id: 'mia_li_3668' } },
      { tool, args: { reservation_id: reservation } },
    ],
  });
  const trace = await executeWorkflow(
    wf,
    { query: 'I am mia_li_3668. Please cancel my reservation on the flight to Seattle.' },
    { policy, tools: tools(made) },
  );
  return { made: made.map(([t]) => t), why: trace.withheld?.[0]?.why };
}

describe("an identifier of another shape than its parameter's learned values is withheld", () => {
  it('the hinted workflow is valid', () => {
    expect(validateWorkflow(workflow(HINTS))).toEqual([]);
  });

  it('a flight number passed as a reservation id is withheld in a read and in a write, though the run saw it', async () => {
    const read = await run(workflow(HINTS), 'get_reservation_details', 'HAT072');
    expect(read.made).toEqual(['get_user_details']);
    expect(read.why).toBe(
      `not run: call withheld: read call get_reservation_details has identifier argument of a shape its parameter does not take: 'reservation_id' ("HAT072", shaped id; its values were code), as the step's hint learned them`,
    );
    const write = await run(workflow(HINTS), 'cancel_reservation', 'HAT072');
    expect(write.made).toEqual(['get_user_details']);
    expect(write.why).toMatch(
      /^not run: write withheld: write call cancel_reservation has identifier argument of a shape/,
    );
  });

  it('a reservation id of the learned shape goes out; without the hint, the flight number is taken by where it came from', async () => {
    expect((await run(workflow(HINTS), 'get_reservation_details', 'NOXJPW')).made).toEqual([
      'get_user_details',
      'get_reservation_details',
    ]);
    expect((await run(workflow(HINTS), 'cancel_reservation', 'AIXCDP')).made).toEqual([
      'get_user_details',
      'cancel_reservation',
    ]);
    expect((await run(workflow(undefined), 'get_reservation_details', 'HAT072')).made).toEqual([
      'get_user_details',
      'get_reservation_details',
    ]);
  });
});
