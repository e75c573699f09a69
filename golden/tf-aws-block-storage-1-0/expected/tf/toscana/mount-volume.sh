#!/bin/sh
# toscana: mounts a volume Terraform attached to this machine at the location of its
# AttachesTo relationship, before the template's own scripts run.
#
# Usage: mount-volume LOCATION DEVICE...
#
# The attachment is made after the machine starts, so the script waits (at most 600 s) for the
# first DEVICE that appears; on a Nitro instance a device name (/dev/sdf) may also be found
# through the NVMe controller that reports it (nvme-cli). A device with no filesystem gets an
# ext4 one; a device that has one (a volume restored from a snapshot) is never formatted. The
# volume is mounted at LOCATION and listed in /etc/fstab with nofail, so that a reboot mounts
# it again and a missing volume does not stop the boot. Any failure is reported on stderr
# (cloud-init's log) and exits non-zero, which stops the scripts that come after it.
set -u
location=$1
shift
log() { echo "toscana mount-volume $location: $*" >&2; }

# The NVMe namespace whose controller reports device name NAME (Nitro instances keep the
# name a volume was attached at in the vendor-specific bytes 3072-3103 of the controller).
nvme_named() {
    command -v nvme >/dev/null 2>&1 || return 0
    for namespace in /dev/nvme[0-9]*n1; do
        [ -b "$namespace" ] || continue
        reported=$(nvme id-ctrl --raw-binary "$namespace" 2>/dev/null |
            dd bs=1 skip=3072 count=32 2>/dev/null | tr -d '\000 ')
        [ -n "$reported" ] || continue
        for wanted in "$@"; do
            case $wanted in /dev/disk/*) continue ;; esac
            if [ "$reported" = "$wanted" ] || [ "/dev/$reported" = "$wanted" ]; then
                echo "$namespace"
                return 0
            fi
        done
    done
}

device=
waited=0
while :; do
    for candidate in "$@"; do
        if [ -b "$candidate" ]; then
            device=$(readlink -f "$candidate")
            break
        fi
    done
    [ -n "$device" ] || device=$(nvme_named "$@")
    [ -z "$device" ] || break
    if [ "$waited" -ge 600 ]; then
        log "no attached volume appeared in $waited seconds (looked for: $*); the scripts that need it do not run"
        exit 1
    fi
    sleep 5
    waited=$((waited + 5))
done

blkid -p "$device" >/dev/null 2>&1
probed=$?
case $probed in
0) log "$device already holds a filesystem: mounted as it is" ;;
2)
    log "$device holds no filesystem: formatting it as ext4"
    mkfs.ext4 -q "$device" || { log "mkfs.ext4 $device failed"; exit 1; }
    ;;
*)
    log "cannot tell whether $device holds a filesystem (blkid exit $probed): not formatting it"
    exit 1
    ;;
esac

uuid=$(blkid -s UUID -o value "$device")
fstype=$(blkid -s TYPE -o value "$device")
if [ -z "$uuid" ] || [ -z "$fstype" ]; then
    log "$device has no filesystem UUID and type to mount by (a partitioned disk?)"
    exit 1
fi
mkdir -p "$location" || { log "cannot create the mount point"; exit 1; }
# fstab separates its fields with blanks: a blank in the location is written as \040.
listed=$(printf '%s' "$location" | sed 's/ /\\040/g')
grep -q "^UUID=$uuid " /etc/fstab 2>/dev/null ||
    echo "UUID=$uuid $listed $fstype defaults,nofail 0 2" >>/etc/fstab
if ! mountpoint -q "$location"; then
    mount "$device" "$location" || { log "mount $device failed"; exit 1; }
fi
log "$device mounted"
