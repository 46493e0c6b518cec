package org.logbase.shell;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.logbase.common.Echo;
import org.logbase.common.schema.StoragePolicy;

/**
 * A column group as typed: {@code group:col1,col2}, followed by its storage-policy settings if any
 * ({@code versions=3 ttl=7d compression=zstd}, see {@link PolicySettings}).
 */
record GroupSpec(String group, List<String> columns, StoragePolicy policy) {
  static GroupSpec parse(String text) {
    int colon = text.indexOf(':');
    List<String> columns = colon < 0 ? List.of()
        : Arrays.stream(text.substring(colon + 1).split(",")).map(String::strip).filter(c -> !c.isEmpty()).toList();
    if (colon <= 0 || columns.isEmpty()) {
      throw new ShellException("invalid column group '" + text + "': write it as group:column[,column...]");
    }
    return new GroupSpec(text.substring(0, colon).strip(), columns, StoragePolicy.DEFAULT);
  }

  /** Groups in the order typed, each with the settings that follow it. */
  static List<GroupSpec> parseAll(List<String> words) {
    List<GroupSpec> groups = new ArrayList<>();
    PolicySettings settings = null;
    for (String word : words) {
      if (PolicySettings.isSetting(word)) {
        if (settings == null) {
          throw new ShellException("setting '" + Echo.of(word) + "' comes before any column group: write it after"
              + " the group it is for (group:column[,column...] " + PolicySettings.USAGE + ")");
        }
        settings.add(word);
      } else {
        withSettings(groups, settings);
        groups.add(parse(word));
        settings = new PolicySettings();
      }
    }
    withSettings(groups, settings);
    return groups;
  }

  /** Gives the last group its settings. */
  private static void withSettings(List<GroupSpec> groups, PolicySettings settings) {
    if (settings != null && !settings.isEmpty()) {
      GroupSpec last = groups.get(groups.size() - 1);
      groups.set(groups.size() - 1, new GroupSpec(last.group(), last.columns(), settings.applyTo(last.policy())));
    }
  }
}
