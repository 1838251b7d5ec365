import type { AnswerMisfits, NoMisfits } from '../engine/types.ts';
import type { HandlerAnswers } from '../generated/endpoints.answers.ts';
import type { HandlerResults } from '../generated/endpoints.ts';

/**
 * Every handler's answer (what it returns, awaited) fits what its endpoints answer
 * (HandlerResults, from their `response:` or resource schema): tsc fails here naming a handler that
 * returns a field of the wrong type. A handler that builds its answer field by field as
 * `Record<string, unknown>` (the context decides the fields) fits in form only, and a RestResponse
 * always: its data is not typed. Nothing imports this module: it is the compiler's check of the
 * handlers against the spec, and through the generated answers it sees every handler, plugins' too.
 */
export type HandlerAnswersChecked = NoMisfits<AnswerMisfits<HandlerAnswers, HandlerResults>>;
