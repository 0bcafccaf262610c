package main

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "poolroids (no build information)"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, "poolroids (devel) go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "e95f81c0"}, {Key: "vcs.modified", Value: "true"},
		}}, "poolroids v0.3.0 (commit e95f81c0, modified) go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "e95f81c0"}, {Key: "vcs.modified", Value: "false"},
		}}, "poolroids v0.3.0 (commit e95f81c0) go1.26.8"},
	} {
		if got := version(c.info); got != c.want {
			t.Errorf("version = %q, want %q", got, c.want)
		}
	}
	// This test binary's own build information reads too.
	info, _ := debug.ReadBuildInfo()
	if v := version(info); len(v) < len("poolroids ") || v[:len("poolroids ")] != "poolroids " {
		t.Errorf("version of this binary = %q", v)
	}
}
