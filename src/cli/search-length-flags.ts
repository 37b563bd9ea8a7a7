import { Option } from '@commander-js/extra-typings';
import { wholeNumberArg } from './parse-number.js';

/**
 * `--iterations` and `--patience`, how long a search runs, for `search`, `bench`, `baseline` and
 * `demo` (`.addOption(iterationsOption(…)).addOption(patienceOption(…))`): each command says what an
 * iteration is there and its default number of them; patience is a whole number of at least 1, 5
 * by default. `example` is the value an error's hint suggests.
 */
export function iterationsOption(help: string, iterations: number, example?: number) {
  return new Option('--iterations <n>', help).default(iterations).argParser(wholeNumberArg('--iterations', 0, example));
}

/** See `iterationsOption`. */
export function patienceOption(help: string, example?: number) {
  return new Option('--patience <n>', help).default(5).argParser(wholeNumberArg('--patience', 1, example));
}
