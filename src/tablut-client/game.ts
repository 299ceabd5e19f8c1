/**
 * One Tablut Challenge game over TCP: send the player's name, then for every state the server
 * sends, answer with an action when it is our turn, until the state says the game is over.
 * The client keeps every state it received, so the engine sees repetitions.
 */
import { connect } from 'node:net';
import { ChallengePlayer, safetyMarginMs } from './player.js';
import { FrameReader, encodeFrame } from './protocol.js';

export type Colour = 'WHITE' | 'BLACK';
export const WHITE_PORT = 5800;
export const BLACK_PORT = 5801;
const FINISHED = ['WHITEWIN', 'BLACKWIN', 'DRAW'];

export interface ClientOptions {
  readonly colour: Colour;
  readonly secondsPerMove: number;
  readonly host: string;
  /** Defaults to the Challenge's port for the colour (5800 white, 5801 black). */
  readonly port?: number;
  readonly name?: string;
  readonly ttMb?: number;
  /** Playing level (src/levels/; absent: the top, full strength) and the seed of its choices (absent: random). */
  readonly level?: number;
  readonly seed?: number;
  /** Search threads (Lazy SMP; default 1). */
  readonly threads?: number;
  readonly log?: (line: string) => void;
}

export interface GameOutcome {
  /** WHITEWIN, BLACKWIN or DRAW; DISCONNECTED when the server closed before the end. */
  readonly result: string;
  /** True / false for a decided game, null for a draw or a disconnection. */
  readonly won: boolean | null;
  /** States received, the initial one included. */
  readonly states: number;
  readonly movesSent: number;
}

export async function playChallengeGame(options: ClientOptions): Promise<GameOutcome> {
  const player = new ChallengePlayer(options.ttMb ?? 64, options.level, options.seed, options.threads ?? 1);
  try {
    // The helper threads load before the game starts, not on the first move's clock.
    await player.whenReady();
    return await playWith(player, options);
  } finally {
    await player.close();
  }
}

function playWith(player: ChallengePlayer, options: ClientOptions): Promise<GameOutcome> {
  const log = options.log ?? (() => {});
  const port = options.port ?? (options.colour === 'WHITE' ? WHITE_PORT : BLACK_PORT);
  const budgetMs = options.secondsPerMove * 1000;
  // Set once connected, from the measured round trip (see safetyMarginMs).
  let thinkMs = Math.max(1, budgetMs - safetyMarginMs(budgetMs));
  const states: unknown[] = [];
  let movesSent = 0;

  return new Promise((resolve, reject) => {
    const reader = new FrameReader();
    let settled = false;
    const finish = (outcome: GameOutcome | Error): void => {
      if (settled) return;
      settled = true;
      socket.end();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };

    const onState = (state: unknown, receivedAt: number): void => {
      const turn = typeof state === 'object' && state !== null ? (state as { turn?: unknown }).turn : undefined;
      if (typeof turn !== 'string') {
        finish(new Error(`unexpected message from the server: ${JSON.stringify(state).slice(0, 200)}`));
        return;
      }
      states.push(state);
      if (FINISHED.includes(turn)) {
        const won = turn === 'DRAW' ? null : turn === `${options.colour}WIN`;
        finish({ result: turn, won, states: states.length, movesSent });
        return;
      }
      if (turn !== options.colour) return;
      const pos = ChallengePlayer.position(state, states.slice(0, -1));
      if (typeof pos === 'string') {
        finish(new Error(`the server sent a state the rules reject (${pos})`));
        return;
      }
      const choice = player.choose(pos, receivedAt + thinkMs, receivedAt);
      if (choice === null) {
        // No legal move: the server will time us out; nothing we could send is legal.
        log(`no legal move for ${options.colour}: waiting for the server to end the game`);
        return;
      }
      socket.write(encodeFrame(choice.action));
      movesSent++;
      log(
        `${options.colour} move ${movesSent}: ${choice.notation} (depth ${choice.depth}, score ${choice.score}, ` +
          `${choice.nodes} nodes, ${choice.elapsedMs} ms)`,
      );
    };

    const connectStarted = performance.now();
    const socket = connect({ host: options.host, port }, () => {
      // The TCP handshake took one round trip: the margin covers it (safetyMarginMs).
      const roundTripMs = performance.now() - connectStarted;
      thinkMs = Math.max(1, Math.floor(budgetMs - safetyMarginMs(budgetMs, roundTripMs)));
      log(
        `connected to ${options.host}:${port} as ${options.colour} (round trip ${roundTripMs.toFixed(1)} ms: thinking ${thinkMs} ms ` +
          `per move on ${player.threads} thread${player.threads === 1 ? '' : 's'})`,
      );
      socket.write(encodeFrame(options.name ?? 'Kibitz'));
    });
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      const receivedAt = Date.now();
      let messages: unknown[];
      try {
        messages = reader.push(chunk);
      } catch (error) {
        finish(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      for (const message of messages) {
        if (settled) break;
        onState(message, receivedAt);
      }
    });
    socket.on('error', (error) => finish(error));
    socket.on('close', () => finish({ result: 'DISCONNECTED', won: null, states: states.length, movesSent }));
  });
}
