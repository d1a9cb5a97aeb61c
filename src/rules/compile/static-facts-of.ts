import { appendTo } from '../append-to';
import type { AnyCompiledRule, CompiledRule } from '../compiled-rule-set';
import type { BlockingFact, LoadChecks } from '../kinds/load-checks';
import { ruleKindModule } from '../kinds/registered-rule-kinds';
import type { StaticFacts } from '../kinds/static-facts';
import { isToolPattern } from '../paths/tool-pattern';

type Fact = 'neverCallable' | 'blocksAtStart' | 'blocksRightAfter';

/** One rule's answer to one question of the facts, with where it comes among the answers. */
interface Answer<Arguments extends unknown[]> {
  readonly order: number;
  readonly position: number;
  why(...input: Arguments): string | null;
}

function loadChecksOf(rule: AnyCompiledRule): LoadChecks<AnyCompiledRule> {
  return ruleKindModule(rule.kind)?.load ?? {};
}

/** The first answer that is not `null`, in order, memoised by its key. */
function firstAnswer<Arguments extends unknown[]>(answers: readonly Answer<Arguments>[]) {
  const memo = new Map<string, string | null>();
  return (key: string, ...input: Arguments): string | null => {
    const known = memo.get(key);
    if (known !== undefined) return known;
    let why: string | null = null;
    for (const answer of answers) {
      why = answer.why(...input);
      if (why !== null) break;
    }
    memo.set(key, why);
    return why;
  };
}

/** Derives the {@link StaticFacts} of a rule list from what each rule's kind says about its rules. */
export function staticFactsOf(rules: readonly CompiledRule[]): StaticFacts {
  const mentioned = new Set<string>();
  const positions = new Map<AnyCompiledRule, number>();
  const byKind = new Map<string, CompiledRule[]>();
  const byKindTool = new Map<string, CompiledRule[]>();
  const answers: { [F in Fact]: Answer<[tool: string, other: string]>[] } = {
    neverCallable: [],
    blocksAtStart: [],
    blocksRightAfter: [],
  };
  rules.forEach((rule, position) => {
    positions.set(rule, position);
    appendTo(byKind, rule.kind, rule);
    if ('tool' in rule) {
      appendTo(byKindTool, `${rule.kind}\u0000${rule.tool}`, rule);
    }
    const module = ruleKindModule(rule.kind);
    for (const { tool } of module?.tools(rule) ?? []) if (!isToolPattern(tool)) mentioned.add(tool);
  });
  const neverCallable = firstAnswer(answers.neverCallable);
  const blockedAtStart = firstAnswer(answers.blocksAtStart);
  const blockedRightAfter = firstAnswer(answers.blocksRightAfter);
  const facts: StaticFacts = {
    rules,
    mentioned,
    rulesOf: (kind) => byKind.get(kind) ?? [],
    rulesOn: (kind, tool) => byKindTool.get(`${kind}\u0000${tool}`) ?? [],
    neverCallable: (tool) => neverCallable(tool, tool, ''),
    blockedAtStart: (tool) => facts.neverCallable(tool) ?? blockedAtStart(tool, tool, ''),
    blockedRightAfter: (previous, tool) => blockedRightAfter(`${previous}\u0000${tool}`, previous, tool),
    positionOf: (rule) => positions.get(rule) ?? -1,
  };
  rules.forEach((rule, position) => {
    const load = loadChecksOf(rule);
    const add = (fact: Fact, answer: BlockingFact<[AnyCompiledRule, string, StaticFacts]> | undefined) => {
      if (answer !== undefined) {
        answers[fact].push({ order: answer.order, position, why: (tool) => answer.why(rule, tool, facts) });
      }
    };
    add('neverCallable', load.neverCallable);
    add('blocksAtStart', load.blocksAtStart);
    const rightAfter = load.blocksRightAfter;
    if (rightAfter !== undefined) {
      answers.blocksRightAfter.push({
        order: rightAfter.order,
        position,
        why: (previous, tool) => rightAfter.why(rule, previous, tool),
      });
    }
  });
  for (const list of Object.values(answers)) list.sort((a, b) => a.order - b.order || a.position - b.position);
  return facts;
}
