import type { AppError, ErrorCode } from './errors.js';

/** Spec §2.1: every response body, success or failure, has this shape. */
export type Envelope<T = unknown> = SuccessEnvelope<T> | FailureEnvelope;

export interface SuccessEnvelope<T> {
  success: true;
  message: string;
  data: T;
}

export interface FailureEnvelope {
  success: false;
  message: string;
  data: null;
  error: { code: ErrorCode; details: string };
}

/** What a handler returns: its data and a short summary such as "10 results". */
export interface HandlerResult<T = unknown> {
  data: T;
  message: string;
  /** 202 for a request accepted and worked on later (a job); 200 by default. */
  status?: 200 | 202;
}

export function ok<T>(data: T, message: string): SuccessEnvelope<T> {
  return { success: true, message, data };
}

export function fail(error: AppError): FailureEnvelope {
  return { success: false, message: error.message, data: null, error: { code: error.code, details: error.details } };
}

/** "1 result", "10 results", "No results": the success message of list endpoints. */
export function countMessage(count: number, noun = 'result'): string {
  if (count === 0) return 'No results';
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
