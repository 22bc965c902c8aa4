import { describe, expect, it } from "vitest";

import { jobFolderPrefix, staleJobMounts, tmpfsOptions } from "./job-folder";

describe("tmpfsOptions", () => {
  it("caps size and inodes, owns the folder by the sandbox user and allows no devices or setuid", () => {
    expect(tmpfsOptions(1024, { uid: 999, gid: 995 })).toBe(
      "size=1024,nr_inodes=65536,mode=0700,uid=999,gid=995,nosuid,nodev",
    );
    expect(tmpfsOptions(1024, null)).toBe("size=1024,nr_inodes=65536,mode=0700,nosuid,nodev");
  });
});

describe("staleJobMounts", () => {
  const line = (mountPoint: string, type = "tmpfs verity-job") =>
    `59 27 0:59 / ${mountPoint} rw,nosuid,nodev,relatime - ${type} rw,size=262144k`;

  it("finds the job folders of dead processes under the base, and nothing else", () => {
    const mountinfo = [
      line(`/tmp/${jobFolderPrefix(111)}abc`),
      line(`/tmp/${jobFolderPrefix(222)}def`),
      line("/tmp/verity-job-trial-xyz"),
      line(`/var/tmp/${jobFolderPrefix(111)}abc`),
      line(`/tmp/${jobFolderPrefix(111)}ghi`, "ext4 /dev/vda"),
      line(`/tmp/${jobFolderPrefix(111)}abc/nested`),
    ].join("\n");
    expect(staleJobMounts(mountinfo, "/tmp", (pid) => pid === 222)).toEqual([`/tmp/${jobFolderPrefix(111)}abc`]);
  });

  it("reads octal escapes in mount points", () => {
    expect(staleJobMounts(line(`/my\\040tmp/${jobFolderPrefix(7)}a`), "/my tmp", () => false)).toEqual([
      `/my tmp/${jobFolderPrefix(7)}a`,
    ]);
  });
});
