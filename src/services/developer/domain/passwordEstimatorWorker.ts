/**
 * The password strength worker (`passwordEstimator.ts` starts it in a
 * worker thread): it builds the estimator once (`@zxcvbn-ts/core` with the
 * common-password and diceware dictionaries and keyboard layouts of
 * `@zxcvbn-ts/language-common`, imported here, when the thread starts, so
 * that neither a start of the server nor its bundle holds them), then
 * scores every password posted to it.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** zxcvbn's verdict on a password: its score (0 to 4) and the key of its warning, if any. */
export interface PasswordScore {
  score: number;
  warning: string | null;
}

/** What the thread is started with. */
export interface EstimatorData {
  /** The characters of a password that are scored (`SCORED_LENGTH`). */
  maxLength: number;
}

/** A password to score, and the words of its owner (email address, name) that an attacker would try. */
export interface ScoreRequest {
  id: number;
  password: string;
  userInputs: string[];
}

/** The score of the request `id`, or why it could not be scored. */
export type ScoreAnswer = { id: number } & (PasswordScore | { error: string });

if (!parentPort) throw new Error('the password strength estimator runs in a worker thread');
const port = parentPort;
const { maxLength } = workerData as EstimatorData;
const [core, common] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]);
const zxcvbn = new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs, maxLength });

port.on('message', ({ id, password, userInputs }: ScoreRequest) => {
  let answer: ScoreAnswer;
  try {
    const result = zxcvbn.check(password, userInputs);
    answer = { id, score: result.score, warning: result.feedback.warning || null };
  } catch (error) {
    answer = { id, error: String((error instanceof Error && error.message) || error) };
  }
  port.postMessage(answer);
});
