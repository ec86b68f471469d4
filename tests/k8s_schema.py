#!/usr/bin/env python3
"""Offline schema check of Kubernetes manifests (the kinds ci/k8s/ uses), with python3-yaml.

Debian 12 has no API server, and its kubectl (kubernetes-client 1.20.2) validates only
against a server's OpenAPI document (apply/create --dry-run=client need one for discovery;
`label --local` decodes without a schema) and predates fields the recipe uses
(backoffLimitPerIndex, maxFailedIndexes: Kubernetes 1.28+). So the schema is written here:
every object's fields form a closed set with their types, as in the Kubernetes API reference
(batch/v1 Job, v1 ConfigMap, PersistentVolumeClaim, PodSpec, Container and the objects they
hold), plus the rules the API server's validation applies to these fields (required fields,
enums, a Job's restartPolicy, Indexed-only fields, names of DNS labels, quantities, volume
mounts naming a volume) and the references between the files (configMap and claim names).
Not made here: what only a server checks (admission, quotas, defaults, the storage class).

Usage: k8s_schema.py FILE...   exit 0 when clean, 1 with one line per finding.
"""
import re
import sys

import yaml

DNS_LABEL = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')
DNS_SUBDOMAIN = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')
LABEL_VALUE = re.compile(r'^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$')
LABEL_KEY = re.compile(r'^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$')
QUANTITY = re.compile(r'^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|[KMGTPE]i|[mkMGTPE])?$')
ENV_NAME = re.compile(r'^[-._a-zA-Z][-._a-zA-Z0-9]*$')
CM_KEY = re.compile(r'^[-._a-zA-Z0-9]+$')

# type names: 'str', 'int', 'bool', 'map' (str -> str), 'quantities' (str -> quantity),
# 'any' (an object not checked further), ['T'] a list of T, or an object type below
TYPES = {
    'ObjectMeta': {'name': 'str', 'generateName': 'str', 'namespace': 'str', 'labels': 'labels',
                   'annotations': 'map'},
    'ConfigMap': {'apiVersion': 'str', 'kind': 'str', 'metadata': 'ObjectMeta', 'data': 'map',
                  'binaryData': 'map', 'immutable': 'bool'},
    'PersistentVolumeClaim': {'apiVersion': 'str', 'kind': 'str', 'metadata': 'ObjectMeta',
                              'spec': 'PVCSpec'},
    'PVCSpec': {'accessModes': ['str'], 'resources': 'VolumeResources', 'storageClassName': 'str',
                'volumeMode': 'str', 'volumeName': 'str', 'selector': 'LabelSelector',
                'dataSource': 'any', 'dataSourceRef': 'any', 'volumeAttributesClassName': 'str'},
    'VolumeResources': {'requests': 'quantities', 'limits': 'quantities'},
    'Job': {'apiVersion': 'str', 'kind': 'str', 'metadata': 'ObjectMeta', 'spec': 'JobSpec'},
    'JobSpec': {'parallelism': 'int', 'completions': 'int', 'activeDeadlineSeconds': 'int',
                'podFailurePolicy': 'any', 'successPolicy': 'any', 'backoffLimit': 'int',
                'backoffLimitPerIndex': 'int', 'maxFailedIndexes': 'int',
                'selector': 'LabelSelector', 'manualSelector': 'bool',
                'template': 'PodTemplateSpec', 'ttlSecondsAfterFinished': 'int',
                'completionMode': 'str', 'suspend': 'bool', 'podReplacementPolicy': 'str',
                'managedBy': 'str'},
    'PodTemplateSpec': {'metadata': 'ObjectMeta', 'spec': 'PodSpec'},
    'PodSpec': {'containers': ['Container'], 'initContainers': ['Container'],
                'restartPolicy': 'str', 'affinity': 'Affinity', 'volumes': ['Volume'],
                'nodeSelector': 'map', 'nodeName': 'str', 'serviceAccountName': 'str',
                'automountServiceAccountToken': 'bool', 'terminationGracePeriodSeconds': 'int',
                'activeDeadlineSeconds': 'int', 'securityContext': 'any', 'tolerations': ['any'],
                'hostNetwork': 'bool', 'hostPID': 'bool', 'hostIPC': 'bool',
                'priorityClassName': 'str', 'runtimeClassName': 'str', 'schedulerName': 'str',
                'dnsPolicy': 'str', 'imagePullSecrets': ['any'], 'shareProcessNamespace': 'bool',
                'topologySpreadConstraints': ['any'], 'enableServiceLinks': 'bool',
                'hostname': 'str', 'subdomain': 'str', 'overhead': 'quantities'},
    'Container': {'name': 'str', 'image': 'str', 'imagePullPolicy': 'str', 'command': ['str'],
                  'args': ['str'], 'workingDir': 'str', 'env': ['EnvVar'], 'envFrom': ['any'],
                  'resources': 'Resources', 'volumeMounts': ['VolumeMount'], 'ports': ['any'],
                  'securityContext': 'any', 'stdin': 'bool', 'stdinOnce': 'bool', 'tty': 'bool',
                  'livenessProbe': 'any', 'readinessProbe': 'any', 'startupProbe': 'any',
                  'lifecycle': 'any', 'terminationMessagePath': 'str',
                  'terminationMessagePolicy': 'str', 'restartPolicy': 'str',
                  'resizePolicy': ['any'], 'volumeDevices': ['any']},
    'EnvVar': {'name': 'str', 'value': 'str', 'valueFrom': 'any'},
    'Resources': {'requests': 'quantities', 'limits': 'quantities', 'claims': ['any']},
    'VolumeMount': {'name': 'str', 'mountPath': 'str', 'readOnly': 'bool', 'subPath': 'str',
                    'subPathExpr': 'str', 'mountPropagation': 'str', 'recursiveReadOnly': 'str'},
    'Volume': {'name': 'str', 'configMap': 'ConfigMapVolume',
               'persistentVolumeClaim': 'ClaimVolume', 'emptyDir': 'any', 'hostPath': 'any',
               'secret': 'any', 'projected': 'any', 'downwardAPI': 'any', 'nfs': 'any',
               'ephemeral': 'any'},
    'ConfigMapVolume': {'name': 'str', 'items': ['any'], 'defaultMode': 'int', 'optional': 'bool'},
    'ClaimVolume': {'claimName': 'str', 'readOnly': 'bool'},
    'Affinity': {'nodeAffinity': 'any', 'podAffinity': 'PodAffinity',
                 'podAntiAffinity': 'PodAffinity'},
    'PodAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': ['PodAffinityTerm'],
                    'preferredDuringSchedulingIgnoredDuringExecution': ['any']},
    'PodAffinityTerm': {'labelSelector': 'LabelSelector', 'namespaces': ['str'],
                        'topologyKey': 'str', 'namespaceSelector': 'LabelSelector',
                        'matchLabelKeys': ['str'], 'mismatchLabelKeys': ['str']},
    'LabelSelector': {'matchLabels': 'labels', 'matchExpressions': ['any']},
}
REQUIRED = {
    'Job': ['spec'], 'JobSpec': ['template'],
    'PodTemplateSpec': ['spec'], 'PodSpec': ['containers'], 'Container': ['name', 'image'],
    'EnvVar': ['name'], 'VolumeMount': ['name', 'mountPath'], 'Volume': ['name'],
    'ClaimVolume': ['claimName'], 'PodAffinityTerm': ['topologyKey'],
    'PersistentVolumeClaim': ['spec'], 'PVCSpec': ['accessModes'],
}
ENUMS = {
    ('JobSpec', 'completionMode'): ('NonIndexed', 'Indexed'),
    ('JobSpec', 'podReplacementPolicy'): ('TerminatingOrFailed', 'Failed'),
    ('PodSpec', 'restartPolicy'): ('Always', 'OnFailure', 'Never'),
    ('Container', 'imagePullPolicy'): ('Always', 'Never', 'IfNotPresent'),
    ('PVCSpec', 'volumeMode'): ('Filesystem', 'Block'),
}
KINDS = {('v1', 'ConfigMap'), ('v1', 'PersistentVolumeClaim'), ('batch/v1', 'Job')}


class Checker:
    def __init__(self):
        self.bad = []

    def say(self, where, what):
        self.bad.append(f'{where}: {what}')

    def check(self, v, t, where):
        if isinstance(t, list):
            if not isinstance(v, list):
                return self.say(where, f'expected a list, got {type(v).__name__}')
            for i, x in enumerate(v):
                self.check(x, t[0], f'{where}[{i}]')
            return None
        if t == 'str':
            if not isinstance(v, str):
                self.say(where, f'expected a string, got {v!r}')
        elif t == 'int':
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                self.say(where, f'expected a non-negative integer, got {v!r}')
        elif t == 'bool':
            if not isinstance(v, bool):
                self.say(where, f'expected true or false, got {v!r}')
        elif t in ('map', 'labels', 'quantities'):
            if not isinstance(v, dict):
                return self.say(where, f'expected a map, got {v!r}')
            for k, x in v.items():
                if not isinstance(k, str) or not isinstance(x, str) and t != 'quantities':
                    self.say(f'{where}.{k}', f'expected a string value, got {x!r}')
                elif t == 'labels' and (not LABEL_KEY.match(k) or not LABEL_VALUE.match(x) or len(x) > 63):
                    self.say(f'{where}.{k}', f'not a valid label: {k}={x!r}')
                elif t == 'quantities' and not QUANTITY.match(str(x)):
                    self.say(f'{where}.{k}', f'not a quantity: {x!r}')
        elif t == 'any':
            pass
        else:
            self.object(v, t, where)
        return None

    def object(self, v, t, where):
        if not isinstance(v, dict):
            return self.say(where, f'expected an object ({t}), got {v!r}')
        for k, x in v.items():
            if k not in TYPES[t]:
                self.say(f'{where}.{k}', f'unknown field of {t}')
            else:
                self.check(x, TYPES[t][k], f'{where}.{k}')
                allowed = ENUMS.get((t, k))
                if allowed and x not in allowed:
                    self.say(f'{where}.{k}', f'{x!r} is not one of {", ".join(allowed)}')
        for k in REQUIRED.get(t, []):
            if k not in v:
                self.say(where, f'{t} lacks the required field {k}')
        return None

    def pod(self, spec, where, in_job):
        names = [c.get('name') for c in spec.get('initContainers', []) + spec.get('containers', [])]
        for n in names:
            if not isinstance(n, str) or not DNS_LABEL.match(n):
                self.say(where, f'container name {n!r} is not a DNS label')
        if len(set(names)) != len(names):
            self.say(where, f'container names repeat: {names}')
        vols = {x.get('name') for x in spec.get('volumes', [])}
        for c in spec.get('initContainers', []) + spec.get('containers', []):
            for m in c.get('volumeMounts', []):
                if m.get('name') not in vols:
                    self.say(f'{where} container {c.get("name")}', f'mounts volume {m.get("name")!r}, not declared')
            for e in c.get('env', []):
                if not ENV_NAME.match(str(e.get('name'))):
                    self.say(f'{where} container {c.get("name")}', f'env name {e.get("name")!r}')
        if in_job and spec.get('restartPolicy') not in ('Never', 'OnFailure'):
            self.say(where, f'a Job pod needs restartPolicy Never or OnFailure, got {spec.get("restartPolicy")!r}')

    def job(self, spec, where):
        indexed = spec.get('completionMode') == 'Indexed'
        if indexed and 'completions' not in spec:
            self.say(where, 'completionMode Indexed needs completions')
        if 'backoffLimitPerIndex' in spec and not indexed:
            self.say(where, 'backoffLimitPerIndex needs completionMode Indexed')
        if 'maxFailedIndexes' in spec:
            if 'backoffLimitPerIndex' not in spec:
                self.say(where, 'maxFailedIndexes needs backoffLimitPerIndex')
            elif isinstance(spec.get('completions'), int) and spec['maxFailedIndexes'] > spec['completions']:
                self.say(where, 'maxFailedIndexes exceeds completions')
        pod = spec.get('template', {}).get('spec', {})
        if 'backoffLimitPerIndex' in spec and pod.get('restartPolicy') != 'Never':
            self.say(where, 'backoffLimitPerIndex needs the pod restartPolicy Never')
        self.pod(pod, f'{where}.template.spec', True)


def main(files):
    c = Checker()
    objs = []
    for f in files:
        try:
            docs = [d for d in yaml.safe_load_all(open(f)) if d is not None]
        except yaml.YAMLError as e:
            c.say(f, f'does not parse: {e}')
            continue
        for i, d in enumerate(docs):
            where = f'{f}#{i + 1}'
            if not isinstance(d, dict) or (d.get('apiVersion'), d.get('kind')) not in KINDS:
                c.say(where, f'not a known kind: {d.get("apiVersion") if isinstance(d, dict) else d!r} '
                      f'{d.get("kind") if isinstance(d, dict) else ""} (expected {sorted(KINDS)})')
                continue
            where = f'{where} {d["kind"]}/{(d.get("metadata") or {}).get("name")}'
            c.object(d, d['kind'], where)
            name = (d.get('metadata') or {}).get('name')
            if not isinstance(name, str) or not DNS_SUBDOMAIN.match(name) or len(name) > 253:
                c.say(where, f'metadata.name {name!r} is not a DNS subdomain')
            objs.append((d['kind'], name))
            if d['kind'] == 'Job' and isinstance(d.get('spec'), dict):
                c.job(d['spec'], f'{where}.spec')
            if d['kind'] == 'ConfigMap':
                for k in (d.get('data') or {}):
                    if not CM_KEY.match(k):
                        c.say(where, f'ConfigMap key {k!r}')
            if d['kind'] == 'PersistentVolumeClaim':
                for m in (d.get('spec') or {}).get('accessModes', []):
                    if m not in ('ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'):
                        c.say(where, f'access mode {m!r}')
            # references: the ConfigMaps and claims the pods mount are in the files
            if d['kind'] == 'Job':
                for v in (((d.get('spec') or {}).get('template') or {}).get('spec') or {}).get('volumes', []):
                    if 'configMap' in v:
                        objs.append(('ref ConfigMap', (v['configMap'] or {}).get('name'), where))
                    if 'persistentVolumeClaim' in v:
                        objs.append(('ref PersistentVolumeClaim', (v['persistentVolumeClaim'] or {}).get('claimName'), where))
    have = {(k, n) for k, n, *_ in objs if not k.startswith('ref ')}
    for k, n, *w in objs:
        if k.startswith('ref ') and (k[4:], n) not in have:
            c.say(w[0], f'uses {k[4:]} {n!r}, which none of the files defines')
    for b in c.bad:
        print(b)
    return 1 if c.bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
