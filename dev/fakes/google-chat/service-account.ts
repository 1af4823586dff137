/**
 * @module
 * A service account's JSON key as the Cloud console's "Keys → Add key → JSON" gives it (the fields of Google's
 * download, a new 2048-bit RSA key in PKCS#8 PEM), for the fake's token endpoint to know and the Worker to sign
 * with: made per run, never a real account's.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";

const FAKE_PROJECT_ID = "parley-local";

export function newServiceAccountKey(): { json: string; clientEmail: string } {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientEmail = `parley-chat@${FAKE_PROJECT_ID}.iam.gserviceaccount.com`;
  const key = {
    type: "service_account",
    project_id: FAKE_PROJECT_ID,
    private_key_id: randomBytes(20).toString("hex"),
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: clientEmail,
    client_id: "100000000000000000002",
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
    token_uri: "https://oauth2.googleapis.com/token",
    universe_domain: "googleapis.com",
  };
  return { json: JSON.stringify(key), clientEmail };
}
