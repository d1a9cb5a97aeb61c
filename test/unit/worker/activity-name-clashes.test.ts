import { describe, expect, it } from 'vitest';
import { refuseActivityNameClashes, refuseReplacedActivities } from '../../../src/worker/activity-name-clashes';
import { ToolrailPluginError } from '../../../src/worker/toolrail-plugin-error';

function thrown(run: () => void): ToolrailPluginError {
  try {
    run();
  } catch (error) {
    if (ToolrailPluginError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('refuseActivityNameClashes', () => {
  it('accepts a worker whose activities and tools have names of their own', () => {
    expect(() =>
      refuseActivityNameClashes({ existing: ['chargeCard'], toolrail: ['callModel'], tools: ['charge_card'] }),
    ).not.toThrow();
  });

  it("refuses an activity with the name of one of toolrail's, naming it", () => {
    const error = thrown(() =>
      refuseActivityNameClashes({
        existing: ['callModel', 'chargeCard'],
        toolrail: ['callModel', 'executeTool'],
        tools: [],
      }),
    );
    expect(error.code).toBe('ACTIVITY_NAME_CLASH');
    expect(error.message).toMatch(/already has activities named "callModel", which toolrail's plugin registers/);
  });

  it('refuses a tool with the name of an activity of the worker, naming it', () => {
    const error = thrown(() =>
      refuseActivityNameClashes({
        existing: ['chargeCard'],
        toolrail: ['callModel'],
        tools: ['chargeCard', 'look_up'],
      }),
    );
    expect(error.code).toBe('TOOL_NAME_CLASH');
    expect(error.message).toMatch(/the tools "chargeCard" have the names of activities/);
  });
});

describe('refuseReplacedActivities', () => {
  it("refuses a worker on which another function runs under the name of one of toolrail's activities", () => {
    const callModel = () => undefined;
    expect(() =>
      refuseReplacedActivities({ ours: { callModel }, registered: new Map([['callModel', callModel]]) }),
    ).not.toThrow();
    const error = thrown(() =>
      refuseReplacedActivities({ ours: { callModel }, registered: new Map([['callModel', () => undefined]]) }),
    );
    expect(error.message).toMatch(/another activity replaced toolrail's "callModel"/);
  });
});
