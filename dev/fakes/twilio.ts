/**
 * @module
 * The Twilio Messages API fake for tests and `npm run dev` (the code is in ./twilio/): sends texts (SMS and
 * WhatsApp, from a number or a Messaging Service), lists and fetches them, with Twilio's errors. `GET /__calls`
 * lists the texts people would receive; `/__fail` `{"to": "+1555…", "error": "21610"}` answers 400 with that Twilio
 * error code, `{"status": 429}` a rate limit (see ./faults.ts and ./control.ts for the other faults).
 * Standalone: `node dev/fakes/twilio.ts` (TWILIO_FAKE_PORT, default 8093).
 */
import { serveStandalone } from "../serve-standalone.ts";
import { startTwilioFake } from "./twilio/server.ts";

export {
  startTwilioFake,
  type RecordedTwilioMessage,
  type RunningTwilioFake,
} from "./twilio/server.ts";

const DEFAULT_TWILIO_FAKE_PORT = 8093;

if (import.meta.main) {
  serveStandalone("twilio_fake", () =>
    startTwilioFake({ port: Number(process.env.TWILIO_FAKE_PORT ?? DEFAULT_TWILIO_FAKE_PORT) }),
  );
}
