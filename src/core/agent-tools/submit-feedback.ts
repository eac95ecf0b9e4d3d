/**
 * `submit_feedback`: an agent (or, through `POST /api/feedback` and the control at the end of each
 * article, a reader) says that a page of this site is wrong, outdated or missing something, or
 * whether it helped. The one tool that is not read-only: it stores what it is sent, as its
 * description says. Where it is stored, and the limit per client network, belong to the feedback
 * feature (src/core/feedback), handed to the tool as {@link ToolContext.feedback}.
 * @module
 */
import * as v from 'valibot';
import { strictObjectMessage } from '../kernel/field-messages.ts';
import { proseText } from '../kernel/prose-text.ts';
import { defineTool } from './tool.ts';

/** What a piece of feedback says about its page. */
export const FEEDBACK_KINDS = ['wrong', 'outdated', 'missing', 'helpful', 'not_helpful'] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];
/** The longest text kept. */
export const FEEDBACK_TEXT_MAX_CHARS = 1000;
/** The longest page URL or path taken. */
export const FEEDBACK_PAGE_MAX_CHARS = 500;

export const FeedbackInputSchema = v.strictObject(
  {
    page: v.pipe(
      v.string('page must be text'),
      v.trim(),
      v.minLength(1, 'page is required'),
      v.maxLength(FEEDBACK_PAGE_MAX_CHARS, `page must be at most ${FEEDBACK_PAGE_MAX_CHARS} characters`),
      v.description(
        'The page of this site the feedback is about (an article, solution, product or listing): its URL or path, e.g. the url of a search_articles result.',
      ),
    ),
    kind: v.pipe(
      v.picklist(FEEDBACK_KINDS, `kind must be one of ${FEEDBACK_KINDS.join(', ')}`),
      v.description(
        'wrong (a statement is incorrect), outdated (no longer true), missing (something the page should say), helpful or not_helpful.',
      ),
    ),
    text: v.optional(
      v.pipe(
        proseText('text', FEEDBACK_TEXT_MAX_CHARS),
        v.description('What is wrong, outdated or missing, in a few sentences (no personal data). Optional for helpful and not_helpful.'),
      ),
      '',
    ),
  },
  strictObjectMessage,
);
export type FeedbackInput = v.InferOutput<typeof FeedbackInputSchema>;

export const FeedbackReceiptSchema = v.object({
  status: v.literal('stored'),
  id: v.pipe(v.string(), v.description('Identifier of the stored feedback.')),
  page: v.pipe(v.string(), v.description('The page path the feedback was filed under.')),
  kind: v.picklist(FEEDBACK_KINDS),
});
export type FeedbackReceipt = v.InferOutput<typeof FeedbackReceiptSchema>;

/** Stores one piece of feedback, or says why not (not a page of this site, the limit reached) in words for the caller. */
export type FeedbackSink = (input: FeedbackInput) => Promise<{ ok: true; receipt: FeedbackReceipt } | { ok: false; message: string }>;

export const submitFeedback = defineTool({
  name: 'submit_feedback',
  title: 'Send feedback on a page',
  description:
    'Tells the site owner that a page of this site is wrong, outdated or missing something, or whether it helped. ' +
    'Stores what it is sent (page, kind, text) for the operator to read; send no personal data. ' +
    'Limited per client network; answers with the id of the stored feedback.',
  input: FeedbackInputSchema,
  output: FeedbackReceiptSchema,
  stores: true,
  async run(args, { feedback }) {
    if (!feedback) return { ok: false, message: 'Feedback is not taken here.' };
    const stored = await feedback(args);
    return stored.ok ? { ok: true, data: stored.receipt } : stored;
  },
  read: (receipt) => ({ text: `Feedback stored (${receipt.kind} on ${receipt.page}), id ${receipt.id}. Thank you.` }),
});
