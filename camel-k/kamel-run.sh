#!/usr/bin/env bash
# Deploys the Inference Gateway with Camel K, from the repository root: ./camel-k/kamel-run.sh [namespace]
#
# Needs kubectl and kamel (Camel K 2.x) pointed at a cluster whose namespace has the Camel K operator, and the gateway
# jar (mvn -DskipTests install, then deploy) in a Maven repository the operator can reach; name it with
# MAVEN_REPOSITORY if it is not one the operator already knows. The `kamel run` below is the same Integration as
# camel-k/integration.yaml, which plain `kubectl apply` can create instead (after the same first four steps).
set -euo pipefail
cd "$(dirname "$0")/.."

NAMESPACE="${1:-$(kubectl config view --minify -o jsonpath='{..namespace}')}"
NAMESPACE="${NAMESPACE:-default}"
VERSION="${VERSION:-0.1.0-SNAPSHOT}"
kube() { kubectl --namespace "$NAMESPACE" "$@"; }

# 1. the InferenceGatewayConfig CRD (cluster-wide; optional, lets kubectl validate a config before it is used)
kubectl apply -f camel-k/inferencegatewayconfig-crd.yaml
# 2. the service account and what it may read: pods (discovery) and configmaps
kube apply -f camel-k/rbac.yaml
# 3. the Kamelets the routes use
kube apply -f kamelets/
# 4. the config the gateway mounts and re-applies when it changes
kube create configmap inference-gateway-config \
  --from-file=config.yaml=camel-k/inference-gateway-config.yaml --dry-run=client -o yaml | kube apply -f -

repository=()
if [[ -n "${MAVEN_REPOSITORY:-}" ]]; then
  repository=(--maven-repository "$MAVEN_REPOSITORY")
fi

# 5. the Integration: every route file, the jar, the components, the traits (the runtime pinned to the one the jar
#    is tested on; probes on the gateway's own /health and /ready)
kamel run routes/*.camel.yaml \
  --namespace "$NAMESPACE" \
  --name inference-gateway \
  --service-account inference-gateway \
  ${repository[@]+"${repository[@]}"} \
  --dependency "mvn:io.inferencegateway:inference-gateway:${VERSION}" \
  --dependency camel:bean \
  --dependency camel:direct \
  --dependency camel:jackson \
  --dependency camel:kamelet \
  --dependency camel:kubernetes \
  --dependency camel:log \
  --dependency camel:micrometer \
  --dependency camel:netty-http \
  --dependency camel:scheduler \
  --dependency camel:timer \
  --property gateway.config=/etc/inference-gateway/config.yaml \
  --property gateway.port=8000 \
  --property gateway.kubernetes.resyncPeriod=10000 \
  --property camel.main.stream-caching-enabled=false \
  --property camel.main.case-insensitive-headers=false \
  --trait camel.runtime-provider=plain-quarkus \
  --trait camel.runtime-version=3.33.2 \
  --trait container.port=8000 \
  --trait container.port-name=http \
  --trait container.service-port=80 \
  --trait container.service-port-name=http \
  --trait service.enabled=true \
  --trait service.auto=false \
  --trait service.type=ClusterIP \
  --trait health.liveness-probe-enabled=true \
  --trait health.liveness-probe=/health \
  --trait health.liveness-port=8000 \
  --trait health.readiness-probe-enabled=true \
  --trait health.readiness-probe=/ready \
  --trait health.readiness-port=8000 \
  --trait kamelets.list=model-server-pods-source \
  --resource configmap:inference-gateway-config@/etc/inference-gateway \
  --pod-template <(printf '%s\n' \
    'terminationGracePeriodSeconds: 45' \
    'containers:' \
    '  - name: integration' \
    '    lifecycle: {preStop: {exec: {command: ["sleep", "5"]}}}')

# 6. Prometheus scrapes the gateway's /metrics, where the Prometheus Operator's PodMonitor resource exists
if kubectl api-resources --api-group=monitoring.coreos.com -o name 2>/dev/null | grep -q '^podmonitors'; then
  kube apply -f camel-k/pod-monitor.yaml
fi
