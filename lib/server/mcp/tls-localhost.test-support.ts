// A self-signed certificate for `localhost` (EC P-256, valid until 2126), for tests that need a TLS
// server. Made with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes
// -subj /CN=localhost -days 36500. Test-only: nothing trusts it.
export const LOCALHOST_TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgzyYn4426eFcSCp6A
uOiTPTWcjRydPnO4QuPv2CSs9RWhRANCAARipsv9zz+PQxp4yyogkrrUEPUpCESS
jUl6NaWnTkINiYu1Ca1mzP9bbSMfSPTuDTgrqnaMpyebhnSr9sph1Xb0
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBgDCCASWgAwIBAgIUYLQsVVaEBd31YIapYFsqGkq/8oMwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyOTEyMjc0N1oYDzIxMjYxMTA1
MTIyNzQ3WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARipsv9zz+PQxp4yyogkrrUEPUpCESSjUl6NaWnTkINiYu1Ca1mzP9b
bSMfSPTuDTgrqnaMpyebhnSr9sph1Xb0o1MwUTAdBgNVHQ4EFgQU2cJmX4FoB363
56/DUD+juBxJEqIwHwYDVR0jBBgwFoAU2cJmX4FoB36356/DUD+juBxJEqIwDwYD
VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEAlB3PFwTjkLhmDbrYJr5V
z4g3enOyoNPz6NLwJaz954sCIQCzLl3cQ8HfbBKQfED2WGmbypAS1rmJpDRlf4Pm
T/qS4g==
-----END CERTIFICATE-----
`,
};
