import type { LiveText } from '../live';
import type { FeedEvent, FeedEventOf } from '../session';

/** Pieces of text kept for a model call the reader has not seen start yet, at most. */
const maxBufferedPieces = 4_096;

/**
 * Which pieces of live text a reader shows, given the durable events it has delivered: only those
 * of the model call in progress (after its `model_call_started`, before its answer or failure),
 * each attempt from its first piece on and in order, each piece once. A later attempt (a retried
 * call) starts again; an attempt the reader joined in the middle, or lost a piece of, shows no
 * more: the answer brings the whole text. Pieces that arrive before the reader has seen their call
 * start wait for it.
 */
export class LiveTextOrder {
  /** The call in progress, as the reader knows it. */
  #active: { turn: number; run: number } | undefined;
  /** The newest turn whose call has answered or failed. */
  #finishedTurn = -1;
  /** The attempt being shown, its last piece, and whether it can go on. */
  #shown: { turn: number; attempt: number; seq: number; broken: boolean } | undefined;
  readonly #waiting: LiveText[] = [];

  /**
   * Takes a durable event the reader delivered; returns the pieces that may follow it now (those
   * of the call it started, which arrived early), as feed events.
   */
  delivered(event: FeedEvent): FeedEventOf<'text_delta'>[] {
    if (event.type === 'model_call_started') {
      this.#active = { turn: event.turn, run: event.run };
      const early = this.#waiting.filter((piece) => piece.turn === event.turn);
      this.#drop((piece) => piece.turn <= event.turn);
      return early.flatMap((piece) => this.#accept(piece, event.offset));
    }
    if (event.type === 'model_responded' || event.type === 'model_call_failed') {
      this.#finishedTurn = Math.max(this.#finishedTurn, event.turn);
      this.#active = undefined;
      this.#drop((piece) => piece.turn <= event.turn);
    }
    return [];
  }

  /**
   * A piece from the channel; `last` is the offset of the newest durable event delivered. Returns
   * it when it shows now.
   */
  offered(piece: LiveText, last: number): FeedEventOf<'text_delta'>[] {
    if (piece.turn <= this.#finishedTurn) return [];
    if (this.#active?.turn === piece.turn) return this.#accept(piece, last);
    if (piece.turn > (this.#active?.turn ?? this.#finishedTurn)) {
      if (this.#waiting.length >= maxBufferedPieces) this.#waiting.shift();
      this.#waiting.push(piece);
    }
    return [];
  }

  #accept(piece: LiveText, last: number): FeedEventOf<'text_delta'>[] {
    const active = this.#active;
    if (active === undefined) return [];
    const shown = this.#shown?.turn === piece.turn ? this.#shown : undefined;
    if (shown === undefined || piece.attempt > shown.attempt) {
      // An attempt shows from its first piece only: one joined in the middle would show half a text.
      this.#shown = { turn: piece.turn, attempt: piece.attempt, seq: piece.seq, broken: piece.seq !== 1 };
      return this.#shown.broken ? [] : [this.#event(piece, last, active.run)];
    }
    if (piece.attempt < shown.attempt || shown.broken || piece.seq <= shown.seq) return [];
    if (piece.seq !== shown.seq + 1) {
      shown.broken = true;
      return [];
    }
    shown.seq = piece.seq;
    return [this.#event(piece, last, active.run)];
  }

  #event(piece: LiveText, last: number, run: number): FeedEventOf<'text_delta'> {
    return {
      offset: last,
      at: piece.at,
      run,
      turn: piece.turn,
      type: 'text_delta',
      attempt: piece.attempt,
      text: piece.text,
      live: true,
    };
  }

  #drop(matches: (piece: LiveText) => boolean): void {
    for (let index = this.#waiting.length - 1; index >= 0; index--) {
      const piece = this.#waiting[index];
      if (piece !== undefined && matches(piece)) this.#waiting.splice(index, 1);
    }
  }
}
