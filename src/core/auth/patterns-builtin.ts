/**
 * The built-in authentication-failure pattern set (spec "Built-in failure indicators" plus the wordings
 * real tools use). Each pattern is written to match where the words MEAN an authentication failure;
 * src/core/auth/README.md has the table with examples and what each deliberately does not match.
 *
 * Every pattern declares `anchors`: lower-case literals, at least one of which occurs in any text the
 * regex can match. The prefilter is built from the union of anchors, so adding a pattern without the
 * right anchor would make the prefilter drop real failures (test/auth-detect.test.ts checks every
 * positive against the prefilter).
 *
 * All regexes are linear: no nested or adjacent overlapping unbounded quantifiers, bounded `{0,n}` gaps.
 */

/** One authentication-failure pattern: `id` names it in logs, `family` groups it (ssh, http, ...). */
export interface AuthPattern {
  readonly id: string;
  readonly family: string;
  readonly regex: RegExp;
}

/**
 * A built-in pattern with the literals the prefilter looks for. A pattern whose anchors mix words and
 * numbers names, in `numeric`, the part of it that only a number anchors (the prefilter runs just that
 * part when a number occurs, so ordinary words in a large text do not make it run the whole pattern).
 */
export interface BuiltinPattern extends AuthPattern {
  readonly anchors: readonly string[];
  readonly numeric?: RegExp;
}

function p(id: string, family: string, regex: RegExp, anchors: readonly string[], numeric?: RegExp): BuiltinPattern {
  return Object.freeze({ id, family, regex, anchors: Object.freeze([...anchors]), ...(numeric ? { numeric } : {}) });
}

// "401"/"403"/"407" as an HTTP status: after a status keyword, never followed by a decimal part, more
// digits or a duration unit ("401.00", "4013", "403 ms").
const STATUS_TAIL = String.raw`40[137](?![\d.]\d|\d)(?!\s*(?:ms|s|sec|secs|seconds|bytes|kb|mb|%)\b)`;

export const BUILTIN_PATTERN_LIST: readonly BuiltinPattern[] = Object.freeze([
  // --- SSH ---------------------------------------------------------------------------------------
  p('ssh-permission-denied', 'ssh',
    /Permission denied \((?:publickey|password|keyboard-interactive|gssapi-[\w-]{1,20}|hostbased)[\w,-]{0,120}\)/i, ['denied']),
  p('ssh-permission-denied-retry', 'ssh', /Permission denied, please try again/i, ['denied']),
  p('ssh-publickey-password', 'ssh', /\bpublickey,(?:gssapi-[\w-]{1,20},)?(?:password|keyboard-interactive)\b/i, ['publickey']),
  p('ssh-host-key-verification', 'ssh', /\bHost key verification failed\b/i, ['host key']),
  p('ssh-too-many-failures', 'ssh', /\bToo many authentication failures\b/i, ['authenticat']),

  // --- databases and stores (before the generic "Authentication failed" so ties name the tool) ----
  p('postgres-password-failed', 'database', /\b(?:password|peer|ident|scram) authentication failed for user\b/i, ['authenticat']),
  p('postgres-no-password', 'database', /\bfe_sendauth: no password supplied\b|\bpg_hba\.conf rejects connection\b|\bno pg_hba\.conf entry for\b/i, ['fe_sendauth', 'pg_hba.conf']),
  p('database-permission-denied', 'database', /\bpermission denied for (?:table|relation|schema|database|sequence|view|function|column|tablespace|materialized view)\b/i, ['permission denied for']),
  p('mysql-command-denied', 'database', /\b[A-Z]{3,12}(?: [A-Z]{2,12})? command denied to user\b/, ['command denied']),
  p('mysql-access-denied', 'database', /\bAccess denied for user\b/i, ['denied']),
  p('mssql-login-failed', 'database', /\bLogin failed for user\b/i, ['login failed']),
  p('mongodb-auth-failed', 'database', /\b(?:Mongo\w{0,30}(?:Error|Exception)\b[^\n]{0,40}|bad auth\s?:\s?)Authentication failed\b/i, ['authenticat']),
  p('redis-noauth', 'database', /\b(?:NOAUTH|WRONGPASS)\b/i, ['noauth', 'wrongpass']),
  p('redis-noperm', 'database', /\bNOPERM\b/, ['noperm']),
  p('mqtt-not-authorised', 'mqtt', /\bConnection (?:Refused|error): (?:Connection Refused: )?(?:not authori[sz]ed|bad user name or password)|\bMQTT\w{0,20}[:\s][^\n]{0,40}\bnot authori[sz]ed\b/i, ['not authori', 'bad user name']),
  p('rsync-auth-failed', 'ssh', /\bauth failed on module\b/i, ['auth failed']),

  // --- generic SSH/API wording (spec list) --------------------------------------------------------
  p('auth-failed', 'ssh', /\bAuthentication (?:failed|failure|error)\b/i, ['authenticat']),

  // --- git over HTTPS -------------------------------------------------------------------------------
  p('git-https-auth-failed', 'git', /\bfatal: Authentication failed for '[^'\n]{1,300}'/i, ['authenticat']),
  p('git-no-terminal', 'git', /\bcould not read (?:Username|Password) for '[^'\n]{1,300}': (?:terminal prompts disabled|No such device or address)/i,
    ['could not read username', 'could not read password']),

  p('git-http-basic-denied', 'git', /\bHTTP Basic: Access denied\b|\bSupport for password authentication was removed\b/i, ['access denied', 'password authentication']),

  // --- HTTP -------------------------------------------------------------------------------------------
  p('http-status-line', 'http', new RegExp(String.raw`\bHTTP\/\d(?:\.\d)? ${STATUS_TAIL}`, 'i'), ['401', '403', '407']),
  p('http-status-reason', 'http', /\b(?:401 Unauthori[sz]ed|403 Forbidden|40[13] Client Error\b)/i, ['401', '403']),
  p('http-status-code', 'http',
    new RegExp(String.raw`\b(?:status(?: code)?|statusCode|status_code|response code|http code|http error|http|returned(?: error)?|responded with|server returned|got)["']?[ \t]{0,3}[:=(]?[ \t]{0,3}${STATUS_TAIL}`, 'i'),
    ['401', '403', '407']),
  p('http-proxy-auth', 'http', /\bProxy Authentication Required|\b(?:CONNECT tunnel failed, response|Received HTTP code|HTTP code) 407\b/i, ['authenticat', '407'],
    /\b(?:CONNECT tunnel failed, response|Received HTTP code|HTTP code) 407\b/i),
  p('http-requires-auth', 'http', /\b(?:requires auth(?:entication|orization)?|Required token could not be found)\b/i, ['requires auth', 'required token']),
  // The bare words only as a response: a whole line/value ("Forbidden", "error: Forbidden",
  // "(Unauthorized)", "{"error":"unauthorized"}"), capitalised or upper case when bare; never inside
  // identifiers ("UnauthorizedError") or prose ("the forbidden fruit").
  p('http-word-response', 'http',
    /(?:^[ \t]{0,8}|[:([>=][ \t]{0,3}|\b(?:error|status|reason|message)\s?[:=][ \t]{0,3})(?:Unauthori[sz]ed|UNAUTHORI[SZ]ED|Forbidden|FORBIDDEN)(?=[ \t]{0,3}(?:$|[)\]<:,!]|\.[ \t]*$|\.[ \t]+[A-Z]))/m,
    ['unauthori', 'forbidden']),
  // Any case after a label that introduces a response: "Error: unauthorized", "failed: forbidden".
  p('http-word-after-label', 'http',
    /\b(?:error|status|reason|message|response|failed)\s?[:=][ \t]{0,3}["']?(?:unauthori[sz]ed|forbidden)\b(?![\w-])/i,
    ['unauthori', 'forbidden']),
  p('http-word-json', 'http', /"(?:error|message|status|reason|detail|title|msg|error_description)"\s?:\s?"(?:unauthori[sz]ed|forbidden)\b|"errors?"\s?:\s?\[\s?"(?:permission denied|missing client token|invalid token|unauthori[sz]ed|forbidden)"/i,
    ['unauthori', 'forbidden', 'denied', 'missing client token', 'invalid token']),
  p('http-exception-status', 'http', /\b(?:PermissionDenied|Unauthenticated|Unauthorized|Forbidden|AccessDenied)(?:Error|Exception)?: 40[13]\b/, ['401', '403']),

  // --- API tokens and keys ----------------------------------------------------------------------------
  p('api-invalid-key', 'api', /\b(?:invalid|incorrect|bad|wrong)[ _-]?(?:api[ _-]?key|x-api-key)\b|\b(?:api[ _-]?key|x-api-key) (?:is )?(?:invalid|not valid|expired|revoked)\b|\bAPI_KEY_INVALID\b/i,
    ['api key', 'api_key', 'api-key', 'apikey', 'x-api-key']),
  p('api-missing-key', 'api', /\b(?:(?:didn't|did not) provide an API key|No API key (?:provided|found)|Missing (?:API key|bearer|authentication token|credentials|Authorization header)|(?:API key|x-api-key header) (?:is )?(?:missing|required))\b/i,
    ['api key', 'x-api-key', 'missing bearer', 'missing authentication', 'missing credentials', 'missing authorization']),
  p('api-authentication-error', 'api', /\b(?:authentication_error|permission_error|AuthenticationError|PermissionDeniedError|InvalidCredentialsError)\b|\.UnauthorizedError\b|\bcredentials were rejected\b/, ['authentication_error', 'permission_error', 'authenticationerror', 'permissiondeniederror', 'invalidcredentialserror', 'unauthorizederror', 'credentials were rejected']),
  p('grpc-unauthenticated', 'api', /\b(?:Code: (?:Unauthenticated|PermissionDenied)|code = (?:Unauthenticated|PermissionDenied)|StatusCode\.(?:UNAUTHENTICATED|PERMISSION_DENIED))\b/, ['code: unauthenticated', 'code: permissiondenied', 'code = unauthenticated', 'code = permissiondenied', 'statuscode.unauthenticated', 'statuscode.permission_denied']),
  p('smb-logon-failure', 'ssh', /\bNT_STATUS_(?:LOGON_FAILURE|WRONG_PASSWORD|ACCOUNT_LOCKED_OUT|ACCESS_DENIED|PASSWORD_EXPIRED|ACCOUNT_DISABLED)\b/, ['nt_status_']),
  p('api-token-expired', 'api', /\b(?:(?:access |auth |bearer |id |refresh )?token (?:has |is )?expired|expired token)\b/i,
    ['token expired', 'token has expired', 'token is expired', 'expired token']),
  p('api-token-invalid', 'api', /\b(?:token (?:in [\w$.-]{1,40} )?(?:is )?(?:invalid|not valid)|invalid (?:access |auth |bearer |id |refresh )?token|invalid_token)\b/i,
    ['token invalid', 'token is invalid', 'token is not valid', 'invalid token', 'invalid access token', 'invalid auth token', 'invalid bearer token', 'invalid id token', 'invalid refresh token', 'invalid_']),
  p('api-invalid-auth', 'api', /\b(?:invalid_auth|not_authed|token_revoked|account_inactive)\b/i, ['invalid_', 'not_authed', 'token_revoked', 'account_inactive']),
  p('api-auth-required', 'api', /\bauthentication required\b/i, ['authenticat']),
  p('amqp-access-refused', 'mq', /\bACCESS_REFUSED\b|\bLogin was refused\b|\bProbableAuthenticationError\b/, ['access_refused', 'login was refused', 'probableauthenticationerror']),
  p('credential-prompt-eof', 'registry', /\bUser for [\w.:[\]-]{1,253}:\s{0,3}(?:\n[^\n]{0,200}){0,12}\bEOFError\b/, ['user for']),
  p('login-failed', 'api', /\b(?:Failed to log ?in(?: to)?|Log ?in failed|login attempt to [^\s]{1,200} failed)\b/i, ['failed to log', 'login failed', 'log in failed', 'login attempt']),
  // --- cloud CLIs --------------------------------------------------------------------------------------
  p('kubectl-logged-in', 'cloud', /\bYou must be logged in to the server\b/i, ['must be logged in']),
  p('aws-token', 'cloud', /\b(?:InvalidClientTokenId|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken(?:Exception)?|UnrecognizedClientException)\b|The security token included in the request is (?:invalid|expired)|The Access Key Id you provided does not exist/i,
    ['invalidclienttokenid', 'invalidaccesskeyid', 'signaturedoesnotmatch', 'expiredtoken', 'unrecognizedclientexception', 'security token included', 'access key id you provided']),
  p('gcloud-reauth', 'cloud', /\bReauthentication (?:required|failed)\b|\bdoes not have any valid credentials\b/i, ['reauthenticat', 'valid credentials']),
  p('azure-aadsts', 'cloud', /\bAADSTS\d{5,}\b/i, ['aadsts']),
  p('aws-access-denied', 'cloud', /\b(?:AccessDenied(?:Exception)?|UnauthorizedOperation|AuthFailure|InvalidSignatureException|MissingAuthenticationToken(?:Exception)?|NotAuthorizedException)\b/,
    ['accessdenied', 'unauthorizedoperation', 'authfailure', 'invalidsignatureexception', 'missingauthenticationtoken', 'notauthorizedexception']),
  p('gcp-denied', 'cloud', /\b(?:PERMISSION_DENIED|UNAUTHENTICATED)\b|\bRequest had invalid authentication credentials\b|\bThe caller does not have permission\b|\bdoes not have [\w.]{3,80} (?:access to|permission)\b|\bYou do not currently have an active account selected\b|\bAccess Denied: (?:Project|Dataset|Table|BigQuery)\b|\bdo not have the required permissions?\b/,
    ['permission_denied', 'unauthenticated', 'invalid authentication credentials', 'caller does not have permission', 'does not have', 'do not have', 'active account selected', 'access denied']),
  p('azure-auth-failed', 'cloud', /\b(?:AuthenticationFailed|AuthorizationFailed|InvalidAuthenticationToken\w{0,20}|ExpiredAuthenticationToken|AuthorizationPermissionMismatch)\b|\bdoes not have authorization to perform action\b/,
    ['authenticationfailed', 'authorizationfailed', 'invalidauthenticationtoken', 'expiredauthenticationtoken', 'authorizationpermissionmismatch', 'does not have authorization']),
  p('vault-denied', 'cloud', /\bCode: 40[13]\. Errors:|(?:^|\n)\s{0,4}\* (?:permission denied|missing client token|ldap operation failed: failed to bind)\b|\bError authenticating: /, ['401', '403', 'denied', 'missing client token', 'failed to bind', 'error authenticating'], /\bCode: 40[13]\. Errors:/),

  // --- package registries and container registries -----------------------------------------------------
  p('npm-e401', 'registry', /(?:\bnpm (?:ERR!|error) (?:code )?|\bcode )(?:E40[13]|ENEEDAUTH)\b|\bERR_PNPM_FETCH_40[13]\b|\bERR_PNPM_NEED_AUTH\b/i, ['e401', 'e403', 'eneedauth', 'err_pnpm_fetch_40', 'err_pnpm_need_auth']),
  p('docker-denied', 'registry', /\bunauthorized: (?:authentication required|incorrect username or password|access to the requested resource is not authorized|authentication failed|unauthorized to access)|\bdenied: (?:requested access to the resource is denied|access forbidden|permission[ _]denied)\b|\bno basic auth credentials\b|\b(?:Head|Get|Post|Put) "https?:\/\/[^"\s]{1,300}": (?:unauthorized|denied|forbidden)\b/i,
    ['authenticat', 'username or password', 'denied', 'not authorized', 'basic auth credentials', 'unauthori', 'forbidden']),

  // --- mail, FTP, directory ------------------------------------------------------------------------------
  p('smtp-535', 'mail', /\b535[ -](?:5\.7\.\d{1,3}\b|(?:Authentication|Incorrect authentication|Error: authentication|authentication failed|Username and Password|Invalid (?:login|credentials|username)|Bad username)\b)|\(535, b?['"]/i, ['535']),
  p('smtp-login-denied', 'mail', /\bLogin denied\b|\bSMTPAuthenticationError\b/i, ['login denied', 'smtpauthenticationerror']),
  p('imap-authenticationfailed', 'mail', /\bAUTHENTICATIONFAILED\b/i, ['authenticat']),
  p('ftp-530', 'ftp', /\bAccess denied: 530\b|\b530[ -](?:Login incorrect|Login authentication failed|User cannot log in|Not logged in|Authentication failed|Permission denied)/i, ['530']),
  p('kerberos-preauth', 'directory', /\bPreauthentication failed\b|\bkinit: [^\n]{0,80}\b(?:Password incorrect|Client not found in Kerberos database|credentials have been revoked)\b/i, ['preauthentication failed', 'kinit']),
  p('ldap-invalid-credentials', 'directory', /\bInvalid credentials \(49\)|\bLDAP: error code 49\b/i, ['invalid credentials', 'error code 49']),

  // --- OAuth ------------------------------------------------------------------------------------------------
  p('oauth-error', 'oauth', /\b(?:invalid_client|invalid_grant|unauthorized_client)\b|\bauthorization grant is invalid\b/i, ['invalid_', 'unauthori', 'authorization grant']),

  p('permission-to-view', 'git', /\b(?:you )?(?:don't|do not) have (?:the )?permission to (?:view|access|read)\b|(?:^|\n)\s{0,4}Access Denied\.(?=\s|$)/i, ['permission to', 'access denied']),
  p('unable-to-authenticate', 'api', /\b(?:unable to|failed to|could not|couldn't|cannot|can't) authenticate\b|\bPlease run ['"`]?[\w-]{1,20}(?: [\w-]{1,20})? login['"`]?/i, ['authenticate', 'please run']),
  p('kube-forbidden', 'cloud', /\bis forbidden: User "[^"\n]{1,200}" cannot\b/, ['is forbidden']),
  p('api-not-authenticated', 'api', /\b(?:Please (?:re-?)?authenticate|Not authenticated|Authentication credentials were not provided|You are not (?:authenticated|logged in)|You (?:must|need to) (?:be logged in|be authenticated|log ?in|authenticate))\b/i,
    ['authenticate', 'not authenticated', 'authentication credentials', 'not logged in', 'must be logged in', 'need to be logged in', 'be authenticated', 'must log', 'need to log', 'must login', 'need to login']),
  // Last, so a tool-specific wording at the same position (LDAP's "Invalid credentials (49)") names the tool.
  p('api-bad-credentials', 'api', /\b(?:Bad credentials|(?:invalid|incorrect|wrong) (?:username or password|username\/password|user name or password|credentials|authentication)|Credentials not correct)\b/i,
    ['credentials not correct', 'invalid authentication', 'bad credentials', 'username or password', 'username/password', 'user name or password', 'invalid credentials', 'incorrect credentials', 'wrong credentials']),
]);
