#include "scrub/scrubber.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "scrub/span.h"
#include "scrub_corpus.h"

namespace clawtools {
namespace {

struct Case {
  std::string_view in;
  std::string_view want;
};

// Secrets, with the exact expected output. Values are random, shaped like the real thing.
constexpr Case kPositives[] = {
    // GoClaw scrub_test.go conformance vectors (exact where GoClaw gives an exact output).
    {"Found key: sk-abcdefghijklmnopqrstuvwxyz1234567890 in env", "Found key: [REDACTED] in env"},
    {"key=sk-ant-abc123-def456-ghi789-jkl012", "key=[REDACTED]"},
    {"token ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij done", "token [REDACTED] done"},
    {"token gho_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij done", "token [REDACTED] done"},
    {"token ghu_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij done", "token [REDACTED] done"},
    {"token ghs_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij done", "token [REDACTED] done"},
    {"token ghr_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij done", "token [REDACTED] done"},
    {"aws_key: AKIAIOSFODNN7EXAMPLE", "aws_key: [REDACTED]"},
    {"api_key=supersecretvalue123", "api_key=[REDACTED]"},
    {"token: mysecrettoken12345", "token: [REDACTED]"},
    {"password=MyStr0ngP@ssword!", "password=[REDACTED]"},
    {"bearer: eyJhbGciOiJIUzI1NiJ9.abc", "bearer: [REDACTED]"},
    {"authorization=eyJhbGciOiJIUzI1NiJ9abcdef", "authorization=[REDACTED]"},
    {"openai=sk-abcdefghijklmnopqrstuvwxyz, github=ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij",
     "openai=[REDACTED], github=[REDACTED]"},
    // Registry vectors (ForLLM / ForUser).
    {"key is sk-abcdefghijklmnopqrstuvwxyz1234567890", "key is [REDACTED]"},
    {"token: ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij", "token: [REDACTED]"},
    // OpenAI.
    {"OPENAI_API_KEY=sk-proj-PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA-2O76UMFx",
     "OPENAI_API_KEY=[REDACTED]"},
    {"using sk-svcacct-FkM-R5Kjp1vRt_1fjORS-6ilI8ihN5KXSc7Tvo-h now", "using [REDACTED] now"},
    {"admin key sk-admin-FkM-R5Kjp1vRt_1fjORS-6ilI8ihN5KXSc7Tvo-h", "admin key [REDACTED]"},
    {"legacy 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.", "legacy [REDACTED]."},
    {"client = OpenAI(api_key=\"sk-proj-PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA\")",
     "client = OpenAI(api_key=\"[REDACTED]\")"},
    // Anthropic: the whole key, '_' and '-' included.
    {"ANTHROPIC_API_KEY=sk-ant-api03-BKqFYY-kv5ZJr3J1TWDtkwtDDb_xHKas1VOqg6YYZYn9ZhyiA4uoRgnatmUdj"
     "AWtGSU8po_799NksnRH9ucAUsdMlHUvTAA",
     "ANTHROPIC_API_KEY=[REDACTED]"},
    {"{\"x-api-key\": \"sk-ant-api03-BKqFYY-kv5ZJr3J1TWDtkwtDDb_xHKas1VOqg6YYZ\"}",
     "{\"x-api-key\": \"[REDACTED]\"}"},
    {"curl -H 'x-api-key: sk-ant-api03-BKqFYY-kv5ZJr3J1TWDtkwtDDb_xHKas1' "
     "https://api.anthropic.com",
     "curl -H 'x-api-key: [REDACTED]' https://api.anthropic.com"},
    {"error: invalid key sk-ant-admin01-kv5ZJr3J1TWDtkwtDDb_xHKas1VOqg6Y (401)",
     "error: invalid key [REDACTED] (401)"},
    // GitHub.
    {"GH_TOKEN=github_pat_UhJduRHHJEYXg4JdpmrcXg_GCJbW56eCuNGMGmSrCGIZEG8pSH4487q7J58m1CiAhzCueQpB"
     "enQtYh5Xj8",
     "GH_TOKEN=[REDACTED]"},
    {"found github_pat_UhJduRHHJEYXg4JdpmrcXg_GCJbW56eCuNGMGmSrCG in file",
     "found [REDACTED] in file"},
    {"remote: https://x-access-token:ghs_Q7wjJJibaZUPgHV7iB3m03nbqnsGpWLuqIA1@github.com/o/r.git",
     "remote: https://x-access-token:[REDACTED]@github.com/o/r.git"},
    {"ghp_XoIIXGvOoNZYW2mZp0zVZomHFwUbbYrEqmSM", "[REDACTED]"},
    // AWS.
    {"AKIAXJQI3OGZ5KOK16ZV", "[REDACTED]"},
    {"aws_access_key_id = ASIA0MWUFXBV932BYV7S", "aws_access_key_id = [REDACTED]"},
    {"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "aws_secret_access_key = [REDACTED]"},
    {"export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "export AWS_SECRET_ACCESS_KEY=[REDACTED]"},
    {"  \"SecretAccessKey\": \"jA+C5Q52ryFlwRlOEVHzc0X0AWIRh+JUqBlIFXZ5\",",
     "  \"SecretAccessKey\": \"[REDACTED]\","},
    {"AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjEOz//////////wEaCXVzLWVhc3QtMSJHMEUCIQ",
     "AWS_SESSION_TOKEN=[REDACTED]"},
    // The value of "Credentials" is itself a key/value pair: all of it goes.
    {"Credentials: AccessKeyId=AKIAXJQI3OGZ5KOK16ZV,", "Credentials: [REDACTED],"},
    // Google.
    {"GOOGLE_API_KEY=AIzaioDnkHIfxIq2HZt-PlJhx2jIclHkCiHp6bR", "GOOGLE_API_KEY=[REDACTED]"},
    {"https://maps.googleapis.com/maps/api/js?key=AIzaioDnkHIfxIq2HZt-PlJhx2jIclHkCiHp6bR&v=3",
     "https://maps.googleapis.com/maps/api/js?key=[REDACTED]&v=3"},
    {"oauth ya29.3Ncqe28_ajY75FnCttn6kfaqDeMqG3omjMyXHCabM6JOF8EFd0Nhcy-1kGD2 ok",
     "oauth [REDACTED] ok"},
    // Slack.
    {"posting with xoxb-864920831240-2344834782450-qcabUGJmGEp7CgQ0PBQFI14z to #alerts",
     "posting with [REDACTED] to #alerts"},
    {"SLACK_USER_TOKEN=xoxp-843353265020-146201684934-0722470455853-196b50ac2f86702824c1c099724caf"
     "49",
     "SLACK_USER_TOKEN=[REDACTED]"},
    {"app token xapp-1-A0123456789-1234567890123-abcdef0123456789", "app token [REDACTED]"},
    {"webhook https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX done",
     "webhook https://hooks.slack.com/services/[REDACTED] done"},
    // Stripe.
    {"stripe.api_key = \"sk_live_UNPjc01T5GOBUSZGi6HWGK10\"", "stripe.api_key = \"[REDACTED]\""},
    {"restricted rk_live_Zb0RLZ5TR9SPofbciOx9gy1C", "restricted [REDACTED]"},
    {"test mode sk_test_JdObOIRpFqaDZeV7G5IfQHeV", "test mode [REDACTED]"},
    {"endpoint secret whsec_7xoFcSvTAxRzmaZsV2GenFmtX0moDoqW", "endpoint secret [REDACTED]"},
    // Hugging Face, GitLab, npm.
    {"HF_TOKEN=hf_VEqZe2qpUWnoVPDF2yeE6RsXcNOPmeMjvq", "HF_TOKEN=[REDACTED]"},
    {"Downloading with token hf_VEqZe2qpUWnoVPDF2yeE6RsXcNOPmeMjvq",
     "Downloading with token [REDACTED]"},
    {"git clone https://oauth2:glpat-_Ydua_5ZMs1SWOpQaPRY@gitlab.com/g/p.git",
     "git clone https://oauth2:[REDACTED]@gitlab.com/g/p.git"},
    {"//registry.npmjs.org/:_authToken=npm_h87mTa5Vsqxezy3Lex7BWr2drgd1QsO7jprB",
     "//registry.npmjs.org/:_authToken=[REDACTED]"},
    {"publishing with npm_h87mTa5Vsqxezy3Lex7BWr2drgd1QsO7jprB", "publishing with [REDACTED]"},
    // Telegram.
    {"bot token 499207074:AAmB_LK777pzNk8cL6j5IXAAjlsHUqJoUD- set", "bot token [REDACTED] set"},
    {"GET https://api.telegram.org/bot499207074:AAmB_LK777pzNk8cL6j5IXAAjlsHUqJoUD-/getMe",
     "GET https://api.telegram.org/bot[REDACTED]/getMe"},
    {"TELEGRAM_BOT_TOKEN=1234567890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq",
     "TELEGRAM_BOT_TOKEN=[REDACTED]"},
    // JWT.
    {"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF"
     "0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
     "[REDACTED]"},
    {"Set-Cookie: session=eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoiYm9iIiwiZXhwIjoxfQ.c2lnbmF0dXJlMTIz; "
     "Path=/",
     "Set-Cookie: session=[REDACTED]; Path=/"},
    // PEM private keys, whole block.
    {"key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi\nZ1BjP5CE/Wm"
     "/Rr500P\n-----END RSA PRIVATE KEY-----\ndone",
     "key:\n[REDACTED]\ndone"},
    {"-----BEGIN OPENSSH PRIVATE "
     "KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAM"
     "wAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----",
     "[REDACTED]"},
    {"-----BEGIN EC PRIVATE KEY-----\r\nMHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCC"
     "qGSM49\r\n-----END EC PRIVATE KEY-----\r\n",
     "[REDACTED]\r\n"},
    {"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END "
     "PRIVATE KEY-----",
     "[REDACTED]"},
    {"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BA"
     "C89\n\nhRmkvHW7HF0Yc3ygXmQ4GtOUa9cYzKX6\n-----END RSA PRIVATE KEY-----",
     "[REDACTED]"},
    {"-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\nlQOYBF0jSKIBCADMZ3vFmZ2y\n=q1Zk\n"
     "-----END PGP PRIVATE KEY BLOCK-----",
     "[REDACTED]"},
    {"$ head -c 80 id_rsa\n-----BEGIN RSA PRIVATE "
     "KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi",
     "$ head -c 80 id_rsa\n[REDACTED]"},
    {"{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADAN"
     "\\n-----END PRIVATE KEY-----\\n\", \"client_email\": \"a@b.iam\"}",
     "{\"type\": \"service_account\", \"private_key\": \"[REDACTED]\", \"client_email\": "
     "\"a@b.iam\"}"},
    // Authorization headers.
    {"Authorization: Bearer abc123def456ghi789jkl", "Authorization: Bearer [REDACTED]"},
    {"curl -H \"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig\" https://api",
     "curl -H \"Authorization: Bearer [REDACTED]\" https://api"},
    {"Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED]"},
    {"authorization: token 0123456789abcdef0123", "authorization: token [REDACTED]"},
    {"{\"headers\": {\"Authorization\": \"Bearer 8f14e45fceea167a5a36dedd4bea2543\"}}",
     "{\"headers\": {\"Authorization\": \"Bearer [REDACTED]\"}}"},
    {"> Proxy-Authorization: Basic dXNlcjpwYXNzMTIz", "> Proxy-Authorization: Basic [REDACTED]"},
    {"sending request with Bearer 8f14e45fceea167a5a36dedd4bea2543 to upstream",
     "sending request with Bearer [REDACTED] to upstream"},
    {"headers={'Authorization': 'Bearer Zm9vYmFyYmF6cXV4MTIzNDU2'}",
     "headers={'Authorization': 'Bearer [REDACTED]'}"},
    // Passwords in URLs and connection strings.
    {"postgres://admin:s3cr3tP4ss@db.example.com:5432/app",
     "postgres://admin:[REDACTED]@db.example.com:5432/app"},
    {"DATABASE_URL=postgresql://user:hunter2hunter2@localhost/db",
     "DATABASE_URL=postgresql://user:[REDACTED]@localhost/db"},
    {"mongodb+srv://app:Pa55w0rd@cluster0.mongodb.net/test",
     "mongodb+srv://app:[REDACTED]@cluster0.mongodb.net/test"},
    {"redis://:redispass123@cache:6379/0", "redis://:[REDACTED]@cache:6379/0"},
    {"mysql://root:p@ss@w0rd@127.0.0.1/db", "mysql://root:[REDACTED]@127.0.0.1/db"},
    {"amqp://guest:guestpw1@rabbit:5672//", "amqp://guest:[REDACTED]@rabbit:5672//"},
    {"fetching https://deploy:t0k3nv4lue@example.com/repo.tar.gz",
     "fetching https://deploy:[REDACTED]@example.com/repo.tar.gz"},
    {"Server=tcp:db.example.net,1433;Database=app;User ID=sa;Password=Sup3rS3cret!;",
     "Server=tcp:db.example.net,1433;Database=app;User ID=sa;Password=[REDACTED];"},
    {"host=db port=5432 user=app password=pgpass12345 dbname=app",
     "host=db port=5432 user=app password=[REDACTED] dbname=app"},
    {"jdbc:mysql://db:3306/app?user=root&password=rootpw123&ssl=true",
     "jdbc:mysql://db:3306/app?user=root&password=[REDACTED]&ssl=true"},
    // Key/value forms.
    {"{\"api_key\": \"0123abcd4567efgh\"}", "{\"api_key\": \"[REDACTED]\"}"},
    {"{'token': 'a6bd0c621de49f145fda9988c79fc355'}", "{'token': '[REDACTED]'}"},
    {"{'GOCLAW_GATEWAY_TOKEN': 'a6bd0c621de49f145fda9988c79fc355'}",
     "{'GOCLAW_GATEWAY_TOKEN': '[REDACTED]'}"},
    {"  secret: dnbMjAdTdlzC5T4uUhf7kvml\n  name: app", "  secret: [REDACTED]\n  name: app"},
    {"  password: \"hunter2hunter2\"", "  password: \"[REDACTED]\""},
    {"FOO_SECRET=4sg8NFNl5oFA6Qd8Mj7z", "FOO_SECRET=[REDACTED]"},
    {"DB_PASSWORD=correcthorse9", "DB_PASSWORD=[REDACTED]"},
    {"DB_PASS=correcthorse9", "DB_PASS=[REDACTED]"},
    {"MY_APP_CLIENT_SECRET=P7HVDctQUy1xvCkg", "MY_APP_CLIENT_SECRET=[REDACTED]"},
    {"secret_key_base = 'P7HVDctQUy1xvCkgdnbMjAdTdlzC5T4u'", "secret_key_base = '[REDACTED]'"},
    {"SECRET_KEY=django-insecure-abc123xyz", "SECRET_KEY=[REDACTED]"},
    {"mysql -u root --password=toor1234 -h db", "mysql -u root --password=[REDACTED] -h db"},
    {"clientSecret: 'P7HVDctQUy1xvCkg'", "clientSecret: '[REDACTED]'"},
    {"apiKey = \"P7HVDctQUy1xvCkg\";", "apiKey = \"[REDACTED]\";"},
    {"const accessToken = \"4sg8NFNl5oFA6Qd8Mj7z\";", "const accessToken = \"[REDACTED]\";"},
    {"ENCRYPTION_KEY=P7HVDctQUy1xvCkg", "ENCRYPTION_KEY=[REDACTED]"},
    {"X-Auth-Token: 4sg8NFNl5oFA6Qd8Mj7z", "X-Auth-Token: [REDACTED]"},
    {"X-API-Key: dnbMjAdTdlzC5T4uUhf7kvml", "X-API-Key: [REDACTED]"},
    {"GET /cb?access_token=4sg8NFNl5oFA6Qd8Mj7z&user=bob",
     "GET /cb?access_token=[REDACTED]&user=bob"},
    {"\"{\\\"password\\\":\\\"hunter2hunter2\\\"}\"", "\"{\\\"password\\\":\\\"[REDACTED]\\\"}\""},
    {"'password' => 'hunter2hunter2',", "'password' => '[REDACTED]',"},
    {"token := \"4sg8NFNl5oFA6Qd8Mj7z\"", "token := \"[REDACTED]\""},
    {"password = hunter2hunter2", "password = [REDACTED]"},
    {"\"refresh_token\":\"1//0gAbCdEfGhIjKlMnOp\"", "\"refresh_token\":\"[REDACTED]\""},
    {"STRIPE_SECRET_KEY=sk_live_UNPjc01T5GOBUSZGi6HWGK10", "STRIPE_SECRET_KEY=[REDACTED]"},
    {"private_key: \"abcdefgh12345678\"", "private_key: \"[REDACTED]\""},
    {"auth_token=Zm9vYmFyYmF6cXV4", "auth_token=[REDACTED]"},
    {"credentials: user1:pa55word99", "credentials: [REDACTED]"},
    // Several secrets in one line, adjacent secrets merge into one marker.
    {"a=ghp_XoIIXGvOoNZYW2mZp0zVZomHFwUbbYrEqmSM b=AKIAXJQI3OGZ5KOK16ZV",
     "a=[REDACTED] b=[REDACTED]"},
    {"AKIAXJQI3OGZ5KOK16ZV/ghp_XoIIXGvOoNZYW2mZp0zVZomHFwUbbYrEqmSM", "[REDACTED]/[REDACTED]"},
    {"password=AKIAXJQI3OGZ5KOK16ZV", "password=[REDACTED]"},
};

// Must come out byte for byte unchanged.
constexpr std::string_view kNearMisses[] = {
    // GoClaw vectors.
    "hello world",
    "sk-short",
    "ghp_tooshort",
    "normal text with no secrets",
    "AKIA1234",
    "",
    // Hashes and ids.
    "commit 3f786850e387550fdab836ed7e6dc881de23001b",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  file.tar.gz",
    "image@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "Digest: sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "request_id=550e8400-e29b-41d4-a716-446655440000",
    "task-0123456789abcdef0123456789abcdef started",
    "sha1=da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "md5: d41d8cd98f00b204e9800998ecf8427e",
    "etag: \"33a64df551425fcc55e4d42a148795d9f25f89d4\"",
    "key_id=abc123def456",
    // Identifiers that merely contain a keyword.
    "cache_key=user:42:profile",
    "keyboard_layout=us",
    "monkey=bananas123",
    "token_count: 15",
    "max_tokens=4096",
    "password_hint=",
    "password_hint=your pet's name",
    "max_token_length=512",
    "input_tokens: 1234, output_tokens: 567",
    "x-ratelimit-remaining-tokens: 39000",
    "password_reset_token_ttl=3600",
    "TOKEN_URL=https://oauth2.googleapis.com/token",
    "token_type: Bearer",
    "secret_name: my-app-secret",
    "secretary: Alice Smith",
    "tokenizer: cl100k_base",
    "passwordless: enabled",
    "author: Jane Doe",
    "authenticated: true",
    "sort_key=created_at",
    "primary_key: id",
    "public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx1Ym7RkM2v9Q0hXq alice@host",
    "keycloak_url=https://sso.example.com/auth",
    // URLs without credentials.
    "https://example.com/path?q=1&page=2",
    "http://user@example.com/",
    "ssh://git@github.com/org/repo.git",
    "git@github.com:org/repo.git",
    "Connecting to postgres://db.example.com:5432/app",
    "redis://localhost:6379/0",
    "https://api.telegram.org/bot<token>/getMe",
    // Bearer in prose and placeholders.
    "The Bearer token is sent in the Authorization header.",
    "Use Bearer authentication for all requests",
    "Authorization: Bearer $TOKEN",
    "Authorization: Bearer ${GITHUB_TOKEN}",
    "Authorization: Bearer <your-token>",
    "bearer realm=\"example\"",
    // Paths and blobs.
    "/home/user/.ssh/id_rsa",
    "/etc/secrets/db-password.txt",
    "data:image/"
    "png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60"
    "e6kgAAAABJRU5ErkJggg==",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0B\n-----END "
    "CERTIFICATE-----",
    // Code.
    "def get_token(self): return self.token",
    "token = self.tokenizer.encode(text)",
    "password = request.form['password']",
    "secret = os.environ.get('SECRET')",
    "api_key = config['api_key']",
    "if token == expected_token:",
    "if token != None:",
    "const token = await getToken();",
    "let apiKey = process.env.OPENAI_API_KEY;",
    "password: str",
    "token: string;",
    "secret: Option<String>,",
    "std::string token = lexer.NextToken();",
    "auto kind = Token::Kind::kString;",
    "token = token_from_header",
    "hf_hub_download(repo_id='bert-base')",
    "scikit-learn==1.3.2",
    "risk-assessment-2024-annual-report-final-draft",
    // Already redacted, masked, too short, empty.
    "password=[REDACTED]",
    "\"password\": \"[REDACTED]\"",
    "api_key=***",
    "password: ********",
    "secret: null",
    "token: true",
    "PASSWORD=",
    "password=abc",
    "Enter password:",
    "The password must be at least 8 characters.",
    // Environment.
    "PWD=/home/user/project",
    "OLDPWD=/tmp",
    "PATH=/usr/local/bin:/usr/bin:/bin",
    // Prefixes explained in prose.
    "ghp_ is the prefix for GitHub tokens",
    "AKIA is the prefix of AWS access key ids",
    "12345678:short",
    "Set-Cookie: theme=dark; Path=/",
    "timestamp=2024-01-15T10:30:00Z level=info msg=\"request completed\" duration=35ms",
};

TEST(ScrubberCorpus, IsLargeEnough) {
  EXPECT_GE(std::size(kPositives), 80u);
  EXPECT_GE(std::size(kNearMisses), 60u);
}

TEST(ScrubberCorpus, PositivesAreRedacted) {
  const Scrubber s;
  for (const Case& c : kPositives) {
    EXPECT_EQ(s.Scrub(c.in), c.want) << "input: " << c.in;
    EXPECT_TRUE(s.Contains(c.in)) << "input: " << c.in;
  }
}

TEST(ScrubberCorpus, NearMissesSurvive) {
  const Scrubber s;
  for (std::string_view in : kNearMisses) {
    EXPECT_EQ(s.Scrub(in), in);
    EXPECT_FALSE(s.Contains(in)) << "input: " << in;
  }
}

TEST(ScrubberCorpus, ScrubIsIdempotent) {
  const Scrubber s;
  for (const Case& c : kPositives) EXPECT_EQ(s.Scrub(c.want), c.want) << "input: " << c.want;
}

TEST(ScrubberCorpus, SecretsAreFoundInsideLargerText) {
  const Scrubber s;
  const std::string pad = "lorem ipsum dolor sit amet\n";
  for (const Case& c : kPositives) {
    const std::string in = pad + std::string(c.in) + "\n" + pad;
    EXPECT_EQ(s.Scrub(in), pad + std::string(c.want) + "\n" + pad);
  }
}

// A long, realistic stream with every secret kind planted: nothing planted may survive, and
// nothing else may change (checked by scrubbing a secret-free corpus).
TEST(ScrubberCorpus, GeneratedCorpus) {
  const Scrubber s;
  const auto clean = bench::MakeScrubCorpus(1 << 20, false);
  EXPECT_EQ(s.Scrub(clean.text), clean.text);
  const auto dirty = bench::MakeScrubCorpus(1 << 20, true);
  ASSERT_GT(dirty.secrets.size(), 100u);
  const std::string out = s.Scrub(dirty.text);
  for (const std::string& secret : dirty.secrets) {
    EXPECT_EQ(out.find(secret), std::string::npos) << secret;
  }
}

TEST(ScrubberAddSecret, RedactsValueAndEncodings) {
  Scrubber s;
  EXPECT_EQ(s.secret_count(), 0u);
  EXPECT_TRUE(s.AddSecret("hunter2:x/y?z"));
  EXPECT_EQ(s.secret_count(), 1u);
  EXPECT_EQ(s.Scrub("pw hunter2:x/y?z end"), "pw [REDACTED] end");
  // base64("hunter2:x/y?z") = aHVudGVyMjp4L3k/eg== ; url-safe aHVudGVyMjp4L3k_eg==
  EXPECT_EQ(s.Scrub("b=aHVudGVyMjp4L3k/eg== ."), "b=[REDACTED] .");
  EXPECT_EQ(s.Scrub("b=aHVudGVyMjp4L3k/eg ."), "b=[REDACTED] .");
  EXPECT_EQ(s.Scrub("b=aHVudGVyMjp4L3k_eg== ."), "b=[REDACTED] .");
  EXPECT_EQ(s.Scrub("b=aHVudGVyMjp4L3k_eg ."), "b=[REDACTED] .");
  EXPECT_EQ(s.Scrub("u=hunter2%3Ax%2Fy%3Fz&"), "u=[REDACTED]&");
  EXPECT_EQ(s.Scrub("u=hunter2%3ax%2fy%3fz&"), "u=[REDACTED]&");
  EXPECT_EQ(s.Scrub("hunter2:x/y"), "hunter2:x/y");
}

TEST(ScrubberAddSecret, RejectsShortDuplicateAndHugeValues) {
  Scrubber s;
  EXPECT_FALSE(s.AddSecret(""));
  EXPECT_FALSE(s.AddSecret("12345"));
  EXPECT_TRUE(s.AddSecret("123456"));
  EXPECT_FALSE(s.AddSecret("123456"));
  EXPECT_FALSE(s.AddSecret(std::string(scrub::kMaxSecretValue + 1, 'q')));
  EXPECT_TRUE(s.AddSecret(std::string("bin\0ary\xff", 8)));
  EXPECT_EQ(s.secret_count(), 2u);
  EXPECT_EQ(s.Scrub(std::string("x bin\0ary\xff y", 12)), "x [REDACTED] y");
  EXPECT_EQ(s.Scrub("id 1234567"), "id [REDACTED]7");
}

TEST(ScrubberAddSecret, ConcurrentWithScrubbing) {
  Scrubber s;
  constexpr int kSecrets = 40;
  auto value = [](int i) { return "runtime-secret-" + std::to_string(i * 7919) + "-value"; };
  std::string text;
  for (int i = 0; i < kSecrets; ++i) text += "line " + value(i) + " end\n";
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      for (int round = 0; round < 60; ++round) {
        const std::string out = s.Scrub(text);
        // Redactions only ever replace whole registered values.
        EXPECT_EQ(out.find("runtime-secret-") == std::string::npos || out.size() <= text.size(),
                  true);
        Scrubber::Stream stream(
            s, [](std::string_view) {}, 64);
        stream.Write(text);
        stream.Finish();
      }
    });
  }
  for (int i = 0; i < kSecrets; ++i) EXPECT_TRUE(s.AddSecret(value(i)));
  for (auto& t : readers) t.join();
  EXPECT_EQ(s.secret_count(), static_cast<size_t>(kSecrets));
  const std::string out = s.Scrub(text);
  EXPECT_EQ(out.find("runtime-secret-"), std::string::npos);
}

std::string StreamScrub(const Scrubber& s, std::string_view in, const std::vector<size_t>& cuts,
                        size_t flush_bytes) {
  std::string out;
  Scrubber::Stream stream(
      s, [&out](std::string_view p) { out.append(p); }, flush_bytes);
  size_t pos = 0;
  for (size_t cut : cuts) {
    stream.Write(in.substr(pos, cut - pos));
    pos = cut;
  }
  stream.Write(in.substr(pos));
  stream.Finish();
  stream.Write("ignored after Finish");
  return out;
}

// Every positive placed so that the stream's emit point falls on each of its bytes in turn.
TEST(ScrubberStream, SecretAtEveryBoundary) {
  const Scrubber s;
  const std::string head(3000, 'x');
  const std::string tail = " trailing text\n" + std::string(scrub::kMaxLookAhead + 100, '.');
  for (const Case& c : kPositives) {
    const std::string in = head + " " + std::string(c.in) + tail;
    const std::string want = s.Scrub(in);
    for (size_t j = 0; j <= c.in.size() + 2; ++j) {
      const size_t first = head.size() + j + scrub::kMaxLookAhead;
      ASSERT_EQ(StreamScrub(s, in, {first}, 1), want) << "input: " << c.in << " j=" << j;
      ASSERT_EQ(StreamScrub(s, in, {head.size() + j}, 1), want) << "input: " << c.in << " j=" << j;
    }
  }
}

TEST(ScrubberStream, RandomChunkingsMatchScrub) {
  const Scrubber s;
  const auto corpus = bench::MakeScrubCorpus(3 << 20, true, 7);
  const std::string want = s.Scrub(corpus.text);
  std::mt19937_64 rng(1234);
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<size_t> cuts;
    const size_t max_chunk = trial < 2 ? 64 : (trial < 4 ? 4096 : 300000);
    for (size_t pos = rng() % max_chunk; pos < corpus.text.size(); pos += 1 + rng() % max_chunk) {
      cuts.push_back(pos);
    }
    const size_t flush = trial % 2 == 0 ? 4096 : 256 * 1024;
    EXPECT_EQ(StreamScrub(s, corpus.text, cuts, flush), want) << "trial " << trial;
  }
}

TEST(ScrubberStream, EmptyAndTinyInputs) {
  const Scrubber s;
  EXPECT_EQ(StreamScrub(s, "", {}, 1), "");
  EXPECT_EQ(StreamScrub(s, "a", {}, 1), "a");
  EXPECT_EQ(StreamScrub(s, "AKIAXJQI3OGZ5KOK16ZV", {1, 2, 3, 10, 19}, 1), "[REDACTED]");
}

// Inputs that make backtracking engines explode must stay linear; the stream must agree.
TEST(ScrubberAdversarial, PathologicalInputs) {
  const Scrubber s;
  const std::string_view units[] = {"a=",
                                    "sk-",
                                    "-----BEGIN ",
                                    "-----BEGIN RSA PRIVATE KEY-----\n",
                                    "password=",
                                    "AKIA",
                                    "eyJ",
                                    "eyJhbGciOi.",
                                    "://a:b@",
                                    "Bearer ",
                                    "token: \"",
                                    "1234567890:",
                                    "ghp_",
                                    "xoxb-",
                                    "sk-proj-",
                                    "a",
                                    "\"api_key\":",
                                    "\\\"",
                                    "=",
                                    ":",
                                    "@",
                                    "password=\"",
                                    "Authorization: Bearer "};
  for (std::string_view unit : units) {
    std::string in;
    while (in.size() < (1 << 20)) in.append(unit);
    const auto start = std::chrono::steady_clock::now();
    const std::string out = s.Scrub(in);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 10.0) << unit;
    EXPECT_EQ(StreamScrub(s, in, {in.size() / 3, in.size() / 2}, 64 * 1024), out) << unit;
  }
}

TEST(ScrubberAdversarial, BinaryAndInvalidUtf8) {
  const Scrubber s;
  std::mt19937_64 rng(99);
  std::string in;
  for (int i = 0; i < (1 << 20); ++i) in.push_back(static_cast<char>(rng() & 0xff));
  const std::string secret = "ghp_XoIIXGvOoNZYW2mZp0zVZomHFwUbbYrEqmSM";
  for (size_t pos = 1000; pos + 100 < in.size(); pos += 100000) {
    in.replace(pos, secret.size() + 2, std::string(1, '\0') + secret + "\xff");
  }
  const std::string out = s.Scrub(in);
  EXPECT_EQ(out.find(secret), std::string::npos);
  EXPECT_EQ(StreamScrub(s, in, {in.size() / 2}, 4096), out);
  EXPECT_EQ(s.Scrub(std::string("\xc3\x28 AKIAXJQI3OGZ5KOK16ZV \0 \xf0\x28\x8c\xbc", 31)),
            std::string("\xc3\x28 [REDACTED] \0 \xf0\x28\x8c\xbc", 21));
}

TEST(ScrubberAdversarial, Huge50MB) {
  const Scrubber s;
  const auto block = bench::MakeScrubCorpus(1 << 20, true, 5);
  const std::string want_block = s.Scrub(block.text);
  std::string in;
  std::string want;
  for (int i = 0; i < 50; ++i) {
    in += block.text;
    want += want_block;
  }
  // Blocks end with a newline, so no secret spans two of them.
  EXPECT_EQ(s.Scrub(in), want);
}

}  // namespace
}  // namespace clawtools
