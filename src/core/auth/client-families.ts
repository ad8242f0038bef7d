/**
 * Which client a program is (ssh, database, http, registry, cloud, ...), so a failure's family can pick
 * the right host of a command line, and the service a cloud CLI talks to when it names no host. Pure.
 */

/** What a failure of this client is about, to match a detection's family (ssh, database, http, ...). */
export type ClientFamily = 'ssh' | 'database' | 'http' | 'git' | 'registry' | 'mail' | 'ftp' | 'directory' | 'cloud' | 'mqtt' | 'mq' | 'other';

const FAMILY: Record<string, ClientFamily> = {};
function family(f: ClientFamily, programs: string): void {
  for (const p of programs.split(' ')) FAMILY[p] = f;
}
family('ssh', 'ssh sftp scp rsync mosh ssh-copy-id autossh sshfs ansible ansible-playbook');
family('database', 'psql pg_dump pg_dumpall pg_restore pg_isready createdb dropdb pgbench mysql mariadb mysqldump mariadb-dump mysqladmin mysqlsh redis-cli valkey-cli mongo mongosh mongodump mongorestore mongoexport mongoimport sqlcmd bcp clickhouse-client cqlsh influx usql');
family('http', 'curl wget http https xh curlie httpie');
family('git', 'git gh glab');
family('registry', 'npm pnpm yarn pip pip3 twine poetry uv docker podman nerdctl crane skopeo helm buildah oras cargo gem');
family('mail', 'swaks msmtp sendmail mutt');
family('ftp', 'ftp lftp sftp ncftp ncftpput ncftpget');
family('directory', 'ldapsearch ldapwhoami ldapadd ldapmodify ldapdelete ldappasswd kinit');
family('cloud', 'hcloud aws gcloud gsutil bq az kubectl oc vault terraform tofu consul nomad doctl flyctl fly heroku vercel netlify wrangler firebase supabase stripe');
family('mqtt', 'mosquitto_pub mosquitto_sub mosquitto_rr');
family('other', 'nc ncat telnet openssl smbclient smbmap rpcclient mount.cifs mount');
family('mq', 'kcat kafkacat kafka-console-producer kafka-console-consumer kafka-topics kafka-configs kafka-console-producer.sh kafka-console-consumer.sh kafka-topics.sh kafka-configs.sh kafka-consumer-groups.sh rabbitmqadmin nats amqp-publish');
family('http', 'grpcurl evans');

/** The service a CLI talks to when its command line names no host (its built-in endpoint). */
const DEFAULT_SERVICE: Readonly<Record<string, string>> = {
  az: 'azure', aws: 'aws', hcloud: 'hetzner', gcloud: 'gcp', gsutil: 'gcp', bq: 'gcp', gh: 'github.com', glab: 'gitlab.com', heroku: 'heroku',
  doctl: 'digitalocean', flyctl: 'fly.io', fly: 'fly.io', vercel: 'vercel', netlify: 'netlify', wrangler: 'cloudflare',
  firebase: 'firebase', supabase: 'supabase', stripe: 'stripe', openai: 'openai', anthropic: 'anthropic', hf: 'huggingface',
  'huggingface-cli': 'huggingface', ibmcloud: 'ibm cloud', oci: 'oracle cloud', linode: 'linode', vultr: 'vultr', twilio: 'twilio',
};

export function defaultService(program: string): string | null {
  return DEFAULT_SERVICE[program] ?? null;
}

/** True for the programs this module reads. */
export function isClientProgram(program: string): boolean {
  return FAMILY[program] !== undefined;
}

export function clientFamily(program: string): ClientFamily {
  return FAMILY[program] ?? 'other';
}

