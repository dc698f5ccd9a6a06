#!/usr/bin/python3
"""Checks the Kubernetes manifests of contrib/kubernetes without a cluster.

kubectl create --dry-run=client needs an API server even so (it asks the server which
resources exist), so the schema is the Kubernetes API's own as Debian's python3-kubernetes
generates it from the OpenAPI spec: every field of every object must be one its type has,
with a value of that type, and every field the API requires must be there (a patch is
checked as partial: nothing required). Then what the API server would refuse on creation:
a selector that does not match the template's labels, a volume mount of no volume, an
unknown hostPath type or mount propagation; and the patch, merged into a csi-driver-nfs node
DaemonSet of the upstream shape as kubectl's strategic merge does (by name, by mount path),
must leave every mount with its volume.

In the same pass, the least privilege the manifests keep (POLICY): no hostPath of `/`, no
SYS_PTRACE, no hostPID or hostIPC; every container of daemonset.yaml and every container the
patch touches with its image by digest (whoever moves a tag runs code as root on every node),
a seccomp profile, allowPrivilegeEscalation: false, all capabilities
dropped and a read-only root file system, unless EXCEPTIONS lists it with its reason.

    kubernetes-manifests.py DIR [UPSTREAM.yaml]
Exit: 0 all good, 1 a finding (each on a line: file: document N: path: what), 77 no yaml or
kubernetes module.
"""
import glob
import os
import re
import sys

try:
    import yaml
    from kubernetes import client
except ImportError as e:
    print(f"skip: {e.name} is not installed (apt-get install python3-yaml python3-kubernetes)")
    sys.exit(77)

# apiVersion/kind -> the model of the Python client
KINDS = {("v1", "ConfigMap"): "V1ConfigMap", ("apps/v1", "DaemonSet"): "V1DaemonSet"}
HOSTPATH_TYPES = {"", "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket",
                  "CharDevice", "BlockDevice"}
PROPAGATION = {"None", "HostToContainer", "Bidirectional"}
PRIMITIVE = {"str": str, "int": int, "bool": bool, "float": (int, float)}


def check_value(value, typ, path, partial, errors):
    """The value as the model type string typ says; returns a model object or the value."""
    if value is None:
        return None
    m = re.fullmatch(r"list\[(.+)\]", typ)
    if m:
        if not isinstance(value, list):
            errors.append(f"{path}: a list expected, got {type(value).__name__}")
            return None
        return [check_value(v, m.group(1), f"{path}[{i}]", partial, errors)
                for i, v in enumerate(value)]
    m = re.fullmatch(r"dict\((.+), (.+)\)", typ)
    if m:
        if not isinstance(value, dict):
            errors.append(f"{path}: a map expected, got {type(value).__name__}")
            return None
        return {k: check_value(v, m.group(2), f"{path}.{k}", partial, errors)
                for k, v in value.items()}
    if typ in PRIMITIVE:
        if not isinstance(value, PRIMITIVE[typ]) or (typ != "bool" and isinstance(value, bool)):
            errors.append(f"{path}: {typ} expected, got {type(value).__name__} {value!r}")
        return value
    if typ in ("object", "datetime"):
        return value
    return check_model(value, typ, path, partial, errors)


def check_model(value, name, path, partial, errors):
    cls = getattr(client.models, name, None) or getattr(client, name)
    if not isinstance(value, dict):
        errors.append(f"{path}: an object ({name}) expected, got {type(value).__name__}")
        return None
    attrs = {json: attr for attr, json in cls.attribute_map.items()}
    kwargs = {}
    for key, v in value.items():
        if key not in attrs:
            errors.append(f"{path}: unknown field '{key}' of {name}")
            continue
        kwargs[attrs[key]] = check_value(v, cls.openapi_types[attrs[key]], f"{path}.{key}",
                                         partial, errors)
    if partial:
        return None
    try:
        return cls(**kwargs)
    except ValueError as e:  # a required field missing, an enum value unknown
        errors.append(f"{path}: {e}")
        return None


def pod_checks(spec, path, errors):
    volumes = {}
    for v in spec.get("volumes") or []:
        volumes[v.get("name")] = v
        hp = v.get("hostPath")
        if hp and hp.get("type", "") not in HOSTPATH_TYPES:
            errors.append(f"{path}.volumes.{v.get('name')}: hostPath type '{hp['type']}' unknown")
    for kind in ("initContainers", "containers"):
        for c in spec.get(kind) or []:
            for m in c.get("volumeMounts") or []:
                where = f"{path}.{kind}.{c.get('name')}.volumeMounts.{m.get('mountPath')}"
                if m.get("name") not in volumes:
                    errors.append(f"{where}: no volume named '{m.get('name')}'")
                if m.get("mountPropagation", "None") not in PROPAGATION:
                    errors.append(f"{where}: mountPropagation '{m['mountPropagation']}' unknown")


def object_checks(doc, path, errors):
    if doc.get("kind") != "DaemonSet":
        return
    spec = doc.get("spec") or {}
    labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
    for k, v in ((spec.get("selector") or {}).get("matchLabels") or {}).items():
        if labels.get(k) != v:
            errors.append(f"{path}.spec.selector: {k}={v} does not match the template's labels")
    pod_checks((spec.get("template") or {}).get("spec") or {}, f"{path}.spec.template.spec",
               errors)


# (file, container) -> why it keeps more than the policy allows; printed with every run
EXCEPTIONS = {
    ("csi-driver-nfs-patch.yaml", "nfs"):
        "csi-driver-nfs's own node plugin, privileged to mount (the patch changes its image and "
        "mounts only, not its securityContext)",
}


def policy_checks(fname, spec, path, errors, only=None):
    """The least privilege of a pod spec; only: the names of the containers to hold to it."""
    for v in spec.get("volumes") or []:
        hp = (v.get("hostPath") or {}).get("path")
        if hp is not None and os.path.normpath(hp) == "/":
            errors.append(f"{path}.volumes.{v.get('name')}: a hostPath of / (root access to the "
                          "whole node): mount the directories the container uses, each its own")
    for key in ("hostPID", "hostIPC"):
        if spec.get(key):
            errors.append(f"{path}.{key}: the node's {key[4:]} namespace; read what is needed "
                          "through a hostPath of it instead (daemonset.yaml's /proc/1)")
    pod_seccomp = (spec.get("securityContext") or {}).get("seccompProfile")
    for kind in ("initContainers", "containers"):
        for c in spec.get(kind) or []:
            where = f"{path}.{kind}.{c.get('name')}.securityContext"
            sc = c.get("securityContext") or {}
            caps = sc.get("capabilities") or {}
            if "SYS_PTRACE" in (caps.get("add") or []):
                errors.append(f"{where}.capabilities.add: SYS_PTRACE (ptrace of host processes); "
                              "/proc/1/mountinfo and mountstats read without it")
            if only is not None and c.get("name") not in only:
                continue
            if c.get("image") and not re.search(r"@sha256:[0-9a-f]{64}$", c["image"]):
                errors.append(f"{path}.{kind}.{c.get('name')}.image: {c['image']} is not pinned "
                              "by digest (NAME@sha256:...; contrib/kubernetes/README.md, Steps)")
            if (fname, c.get("name")) in EXCEPTIONS:
                continue
            missing = []
            if not (sc.get("seccompProfile") or pod_seccomp):
                missing.append("seccompProfile (RuntimeDefault)")
            if sc.get("allowPrivilegeEscalation") is not False or sc.get("privileged"):
                missing.append("allowPrivilegeEscalation: false (and not privileged)")
            if "ALL" not in (caps.get("drop") or []):
                missing.append('capabilities.drop: ["ALL"]')
            if sc.get("readOnlyRootFilesystem") is not True:
                missing.append("readOnlyRootFilesystem: true")
            if missing:
                errors.append(f"{where}: without {', '.join(missing)}; set it, or list the "
                              f"container in EXCEPTIONS of {os.path.basename(__file__)} with why")


def merge(base, patch):
    """kubectl's strategic merge for what the patch uses: maps merge, lists of named
    objects merge by their key (name; mountPath for volumeMounts), other values replace."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for k, v in patch.items():
            out[k] = merge(base.get(k), v) if k in base else v
        return out
    if isinstance(base, list) and isinstance(patch, list) and patch and isinstance(patch[0], dict):
        key = "mountPath" if "mountPath" in patch[0] else "name"
        out = list(base)
        for p in patch:
            i = next((i for i, b in enumerate(out) if b.get(key) == p.get(key)), None)
            if i is None:
                out.append(p)
            else:
                out[i] = merge(out[i], p)
        return out
    return patch


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 1
    errors, count = [], 0
    upstream = sys.argv[2] if len(sys.argv) > 2 else None
    for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.yaml"))):
        partial = f.endswith("-patch.yaml")
        with open(f) as fh:
            try:
                docs = [d for d in yaml.safe_load_all(fh) if d is not None]
            except yaml.YAMLError as e:
                errors.append(f"{f}: not YAML: {e}")
                continue
        for n, doc in enumerate(docs, 1):
            path = f"{os.path.basename(f)}: document {n}: {doc.get('kind')}"
            model = KINDS.get((doc.get("apiVersion"), doc.get("kind")))
            if not model:
                errors.append(f"{path}: apiVersion/kind {doc.get('apiVersion')}/{doc.get('kind')} not checked here")
                continue
            check_model(doc, model, path, partial, errors)
            count += 1
            if not partial:
                object_checks(doc, path, errors)
                if doc.get("kind") == "DaemonSet":
                    policy_checks(os.path.basename(f), doc["spec"]["template"]["spec"],
                                  f"{path}.spec.template.spec", errors)
            elif upstream:
                with open(upstream) as fh:
                    base = yaml.safe_load(fh)
                if (base["metadata"]["name"], base["metadata"]["namespace"]) != \
                        (doc["metadata"]["name"], doc["metadata"]["namespace"]):
                    errors.append(f"{path}: patches {doc['metadata']}, not {base['metadata']}")
                names = {c["name"] for c in base["spec"]["template"]["spec"]["containers"]}
                for c in doc["spec"]["template"]["spec"].get("containers", []):
                    if c["name"] not in names:
                        errors.append(f"{path}: container '{c['name']}' is not one of {sorted(names)}")
                merged = merge(base, doc)
                check_model(merged, model, path + " (merged)", False, errors)
                object_checks(merged, path + " (merged)", errors)
                touched = {c["name"] for k in ("initContainers", "containers")
                           for c in doc["spec"]["template"]["spec"].get(k, [])}
                policy_checks(os.path.basename(f), merged["spec"]["template"]["spec"],
                              f"{path} (merged).spec.template.spec", errors, only=touched)
    for e in errors:
        print(e)
    for (f, c), why in EXCEPTIONS.items():
        print(f"policy exception: {f}: container {c}: {why}")
    print(f"{count} objects checked, {len(errors)} findings")
    return 1 if errors or not count else 0


if __name__ == "__main__":
    sys.exit(main())
