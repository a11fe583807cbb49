// electron-builder afterSign hook: notarises the signed macOS app with Apple's
// notary service. Credentials come from the environment only (CI secrets), in
// the order Apple recommends:
//   APPLE_API_KEY (path to the .p8), APPLE_API_KEY_ID, APPLE_API_ISSUER
//   or APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID
// Without them (local builds, Linux/Windows) it says so and does nothing.
import { join } from 'node:path';
import notarizePackage from '@electron/notarize';

const { notarize } = notarizePackage;

export function notarizeCredentials(env) {
  if (env.APPLE_API_KEY && env.APPLE_API_KEY_ID && env.APPLE_API_ISSUER) {
    return {
      appleApiKey: env.APPLE_API_KEY,
      appleApiKeyId: env.APPLE_API_KEY_ID,
      appleApiIssuer: env.APPLE_API_ISSUER,
    };
  }
  if (env.APPLE_ID && env.APPLE_APP_SPECIFIC_PASSWORD && env.APPLE_TEAM_ID) {
    return { appleId: env.APPLE_ID, appleIdPassword: env.APPLE_APP_SPECIFIC_PASSWORD, teamId: env.APPLE_TEAM_ID };
  }
  return undefined;
}

export default async function afterSign(context) {
  if (context.electronPlatformName !== 'darwin') return;
  const credentials = notarizeCredentials(process.env);
  if (!credentials) {
    console.log(
      '  • notarize: skipped (set APPLE_API_KEY/APPLE_API_KEY_ID/APPLE_API_ISSUER or APPLE_ID/APPLE_APP_SPECIFIC_PASSWORD/APPLE_TEAM_ID)',
    );
    return;
  }
  const appName = context.packager.appInfo.productFilename;
  const appPath = join(context.appOutDir, `${appName}.app`);
  console.log(`  • notarize: submitting ${appPath}`);
  await notarize({ appPath, ...credentials });
  console.log('  • notarize: done (stapled)');
}
