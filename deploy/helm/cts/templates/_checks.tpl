{{/* Every variable the chart reads from a Secret (values.yaml `secrets`), never accepted as a plain
     value: the LEDGER_RPC_URL_* ones when ledger.rpcUrlsFromSecret (URLs that embed an API key). */}}
{{- define "cts.secretVariables" -}}
{{- $vars := list "ADMIN_TOKEN" "API_KEY_HASH_KEY" "DATA_SEALING_KEY" "CUSTODY_MASTER_KEY" "INTERNAL_TOKEN" "DATABASE_URL" "REDIS_URL" "LEDGER_FEE_PAYER_KEY_TEST" "LEDGER_FEE_PAYER_KEY_LIVE" "KAFKA_SASL_USERNAME" "KAFKA_SASL_PASSWORD" -}}
{{- if .Values.ledger.rpcUrlsFromSecret -}}
{{- $vars = concat $vars (list "LEDGER_RPC_URL_TEST" "LEDGER_RPC_URL_LIVE") -}}
{{- end -}}
{{- toJson $vars -}}
{{- end -}}

{{/* Template-time checks: a release that would misbehave at run time does not render. */}}
{{- define "cts.checks" -}}
{{- $apps := .Values.apps -}}

{{- /* Custody's master key belongs to transfer-service alone (ARCHITECTURE.md §4). */ -}}
{{- range $name, $app := $apps -}}
{{- if and (ne $name "transfer-service") (has "CUSTODY_MASTER_KEY" ($app.secretEnv | default list)) -}}
{{- fail (printf "apps.%s.secretEnv lists CUSTODY_MASTER_KEY: only transfer-service may hold the custody master key" $name) -}}
{{- end -}}
{{- end -}}

{{- /* Secrets only by reference: a secret variable in `config` or an app's `env` would land in a
     plain ConfigMap (readable by anyone who can read ConfigMaps, and in `helm get values`). */ -}}
{{- $secretVars := include "cts.secretVariables" . | fromJsonArray -}}
{{- range $key := keys (.Values.config | default dict) | sortAlpha -}}
{{- if has $key $secretVars -}}
{{- fail (printf "config.%s: %s is a secret and config goes into a plain ConfigMap; keep it in the Secret (secrets.existingSecret, or secrets.refs.%s) and list it in the secretEnv of the apps that read it" $key $key $key) -}}
{{- end -}}
{{- end -}}
{{- range $name := keys $apps | sortAlpha -}}
{{- range $key := keys ((index $apps $name).env | default dict) | sortAlpha -}}
{{- if and (eq $key "CUSTODY_MASTER_KEY") (ne $name "transfer-service") -}}
{{- fail (printf "apps.%s.env.CUSTODY_MASTER_KEY: only transfer-service may hold the custody master key, and only from the Secret (apps.transfer-service.secretEnv)" $name) -}}
{{- else if has $key $secretVars -}}
{{- fail (printf "apps.%s.env.%s: %s is a secret and env goes into a plain ConfigMap; keep it in the Secret (secrets.existingSecret, or secrets.refs.%s) and list it in apps.%s.secretEnv" $name $key $key $key $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The ledger. */ -}}
{{- $ledger := .Values.ledger -}}
{{- if not (has $ledger.mode (list "cluster" "in-process")) -}}
{{- fail (printf "ledger.mode must be cluster or in-process, not %q" $ledger.mode) -}}
{{- end -}}
{{- $transfer := index $apps "transfer-service" -}}
{{- if and $transfer.enabled (eq $ledger.mode "in-process") -}}
{{- if gt (include "cts.maxReplicas" $transfer | int) 1 -}}
{{- fail "ledger.mode in-process keeps the ledger inside one transfer-service process: set apps.transfer-service.replicas to 1 and autoscaling.enabled to false, or use ledger.mode cluster" -}}
{{- end -}}
{{- end -}}
{{- if and $transfer.enabled (eq $ledger.mode "cluster") -}}
{{- range $env := list "test" "live" -}}
{{- $target := index $ledger $env -}}
{{- if not $target.assets -}}
{{- fail (printf "ledger.%s.assets is required in cluster mode (\"USDC=<mint>:6,SOL=<mint>:9\"): without it transfer-service would not settle %s transfers on the cluster" $env $env) -}}
{{- end -}}
{{- range $entry := splitList "," $target.assets -}}
{{- if not (regexMatch "^\\s*[A-Z]{2,10}=[1-9A-HJ-NP-Za-km-z]{32,44}:[0-9]{1,2}\\s*$" $entry) -}}
{{- fail (printf "ledger.%s.assets: invalid entry %q, expected CODE=<mint address>:<decimals>" $env $entry) -}}
{{- end -}}
{{- end -}}
{{- if and (not $ledger.rpcUrlsFromSecret) (not $target.rpcUrl) -}}
{{- fail (printf "ledger.%s.rpcUrl is required in cluster mode (or set ledger.rpcUrlsFromSecret)" $env) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- /* Partitions per topic family ≥ the most replicas of any app consuming that family. */ -}}
{{- range $family, $consumers := .Values.topics.consumers -}}
{{- $partitions := index $.Values.topics.partitions $family -}}
{{- if not $partitions -}}
{{- fail (printf "topics.partitions.%s is missing (topics.consumers names the family %q)" $family $family) -}}
{{- end -}}
{{- range $name := $consumers -}}
{{- if not (hasKey $apps $name) -}}
{{- fail (printf "topics.consumers.%s names %q, which is not an app in `apps`" $family $name) -}}
{{- end -}}
{{- $app := index $apps $name -}}
{{- if $app.enabled -}}
{{- $max := include "cts.maxReplicas" $app | int -}}
{{- if gt $max ($partitions | int) -}}
{{- fail (printf "topics.partitions.%s is %d but %s can run %d replicas (it consumes the %s topics): replicas beyond the partition count would get no messages. Raise topics.partitions.%s or lower apps.%s.autoscaling.maxReplicas." $family ($partitions | int) $name $max $family $family $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- range $family, $partitions := .Values.topics.partitions -}}
{{- if lt ($partitions | int) 1 -}}
{{- fail (printf "topics.partitions.%s must be at least 1" $family) -}}
{{- end -}}
{{- end -}}

{{- end -}}
