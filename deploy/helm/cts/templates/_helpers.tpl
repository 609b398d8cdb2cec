{{/* Names and labels. */}}

{{- define "cts.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "cts.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* "<fullname>-<component>": ctx = dict "root" $ "component" "gateway" */}}
{{- define "cts.componentName" -}}
{{- printf "%s-%s" (include "cts.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "cts.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cts.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cts.labels" -}}
{{ include "cts.selectorLabels" . }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: cts
{{- end -}}

{{- define "cts.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "cts.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "cts.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The enabled apps, sorted: a list of names. */}}
{{- define "cts.enabledApps" -}}
{{- $names := list -}}
{{- range $name := keys .Values.apps | sortAlpha -}}
{{- if (index $.Values.apps $name).enabled -}}
{{- $names = append $names $name -}}
{{- end -}}
{{- end -}}
{{- toJson $names -}}
{{- end -}}

{{/* An app's settings with the `defaults` under them: ctx = dict "root" $ "name" "gateway" */}}
{{- define "cts.appSettings" -}}
{{- $app := index .root.Values.apps .name -}}
{{- toJson (mergeOverwrite (deepCopy .root.Values.defaults) (deepCopy $app)) -}}
{{- end -}}

{{/* The most replicas an app can have: HPA maxReplicas, or `replicas` without an HPA. */}}
{{- define "cts.maxReplicas" -}}
{{- $autoscaling := .autoscaling | default dict -}}
{{- if $autoscaling.enabled -}}
{{- $autoscaling.maxReplicas | int -}}
{{- else -}}
{{- .replicas | int -}}
{{- end -}}
{{- end -}}

{{/* Pod-level security context shared by apps and Jobs. The image's user is `node` (uid 1000):
     runAsNonRoot needs a numeric user to verify. */}}
{{- define "cts.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "cts.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: [ALL]
{{- end -}}

{{/* One env entry read from the Secret: ctx = dict "root" $ "var" "DATABASE_URL" */}}
{{- define "cts.secretEnvVar" -}}
{{- $ref := index .root.Values.secrets.refs .var | default dict -}}
- name: {{ .var }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name | default (required "secrets.existingSecret is required" .root.Values.secrets.existingSecret) }}
      key: {{ $ref.key | default .var }}
{{- end -}}

{{/* The Secret variables an app gets: its secretEnv, INTERNAL_TOKEN (every app: it guards the internal
     paths between them, and an app left without it could neither ask nor answer there), plus the
     ledger's (transfer-service in cluster mode) and the broker credentials (kafka.sasl.enabled).
     ctx = dict "root" $ "name" app "app" settings */}}
{{- define "cts.appSecretVars" -}}
{{- $vars := concat (.app.secretEnv | default list) (list "INTERNAL_TOKEN") -}}
{{- if and (eq .name "transfer-service") (eq .root.Values.ledger.mode "cluster") -}}
{{- $vars = concat $vars (list "LEDGER_FEE_PAYER_KEY_TEST" "LEDGER_FEE_PAYER_KEY_LIVE") -}}
{{- if .root.Values.ledger.rpcUrlsFromSecret -}}
{{- $vars = concat $vars (list "LEDGER_RPC_URL_TEST" "LEDGER_RPC_URL_LIVE") -}}
{{- end -}}
{{- end -}}
{{- toJson (concat $vars (include "cts.kafkaSecretVars" .root | fromJsonArray) | uniq) -}}
{{- end -}}

{{- define "cts.kafkaSecretVars" -}}
{{- if .Values.kafka.sasl.enabled -}}
{{- toJson (list "KAFKA_SASL_USERNAME" "KAFKA_SASL_PASSWORD") -}}
{{- else -}}
{{- toJson list -}}
{{- end -}}
{{- end -}}

{{/* Non-secret broker settings, inline (Jobs) or in the ConfigMap. */}}
{{- define "cts.kafkaConfig" -}}
KAFKA_BROKERS: {{ required "kafka.brokers is required (comma-separated bootstrap brokers)" .Values.kafka.brokers | quote }}
{{- if .Values.kafka.sasl.enabled }}
KAFKA_SASL_MECHANISM: {{ .Values.kafka.sasl.mechanism | quote }}
{{- end }}
{{- if .Values.kafka.ssl }}
KAFKA_SSL: "true"
{{- end }}
{{- end -}}

{{/* The writable /tmp every pod gets (the root filesystem is read-only). */}}
{{- define "cts.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ . }}
{{- end -}}
