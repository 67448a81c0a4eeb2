set -u
mnt=$1
mount -t tmpfs -o size=2m tmpfs "$mnt" || exit 90
"$PLUMB" archive add one.plumb two.plumb --archive-dir "$mnt/A" >/dev/null || exit 91
fill() {
	dd if=/dev/zero of="$mnt/fill" bs=4096 2>/dev/null
	dd if=/dev/zero of="$mnt/fill2" bs=1 2>/dev/null
}
after() {
	find "$mnt/A" -name ".*.tmp.*" >temps.$1
	rm -f "$mnt/fill" "$mnt/fill2"
	find "$mnt/A/bundles" -name "*.plumb" | wc -l >files.$1
	"$PLUMB" archive list --json --archive-dir "$mnt/A" >list.$1 2>&1
	"$PLUMB" archive verify --archive-dir "$mnt/A" >verify.$1 2>&1
	echo $? >verify.status.$1
}
# (1) Not a byte free.
fill
"$PLUMB" archive add new.plumb --archive-dir "$mnt/A" >add.out.1 2>add.err.1
echo $? >add.status.1
after 1
# (2) 192 KiB free: the database opens, the 300+ KiB bundle does not fit.
dd if=/dev/zero of="$mnt/reserve" bs=4096 count=48 2>/dev/null
fill
rm -f "$mnt/reserve"
"$PLUMB" archive add big.plumb --archive-dir "$mnt/A" >add.out.2 2>add.err.2
echo $? >add.status.2
after 2
# Room again: the same adds now work.
"$PLUMB" archive add new.plumb big.plumb --archive-dir "$mnt/A" >add.out.3 2>&1
echo $? >add.status.3
"$PLUMB" archive verify --archive-dir "$mnt/A" >verify.3 2>&1
echo $? >verify.status.3
umount "$mnt"
