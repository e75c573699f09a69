//! The rules' tables of products (`products`, `known_ports`), looked up by the words of a node:
//! its type names, its product properties (`product`, `dbms`, `engine`, `type`) and, where a
//! lifted stack is read, its template name; or, for a container, by the image it runs.

use serde_json::Value as Json;

use crate::ir::Value;

use super::*;

impl Ctx<'_> {
    /// The product-table entry a node names by its type or by one of the properties listed in
    /// the table's `properties`.
    pub(super) fn product_of(&self, i: usize) -> Option<Json> {
        self.table_entry(i, "products", false)
    }

    /// The entry of the rules' table `table` (`products`, `known_ports`) whose `match` words
    /// occur among the words of node `i`'s types and product properties, and of its name when
    /// `by_name` (`mongo_dbms` → mongodb).
    pub(super) fn table_entry(&self, i: usize, table: &str, by_name: bool) -> Option<Json> {
        self.entry_by_words(i, table, &["match"], by_name)
    }

    /// The `products` entry of the product a lifted node installs, when the table knows where
    /// the product's distribution package keeps its data (`package_data`): its `match` words
    /// (the products a DBMS node runs as their image) or its `lifted` words (those only a lifted
    /// install of names: `elasticsearch`, `rabbitmq`) among the words of the node's types, and of
    /// its name for a DBMS or Database (`mongo_dbms`). A software node is matched by its types
    /// only: a name says less about what a component is than its type.
    pub(super) fn lifted_product(&self, i: usize) -> Option<Json> {
        let by_name = matches!(self.roles[i], Role::Dbms | Role::Database);
        self.entry_by_words(i, "products", &["match", "lifted"], by_name)
            .filter(|entry| json_str(entry, "package_data").is_some())
    }

    /// The first entry of table `table` one of whose `keys` lists a word of node `i` (see
    /// [`Self::table_entry`]).
    fn entry_by_words(&self, i: usize, table: &str, keys: &[&str], by_name: bool) -> Option<Json> {
        let bind = &self.binds[i];
        let node = self.node(i);
        let mut texts: Vec<String> = node.types.iter().flat_map(|t| words(t)).collect();
        if by_name {
            texts.extend(words(&node.name));
        }
        for p in json_strings(bind, "product_properties") {
            if let Some(v) = self.property(i, &p).and_then(Value::as_str) {
                texts.extend(words(v));
            }
        }
        // The words are lower case, so a listed word matches one in any case without a
        // lower-case copy of it (this scan runs for every node and every entry of the table).
        let named = |m: &str| texts.iter().any(|t| t.eq_ignore_ascii_case(m));
        bind.get(table)?
            .as_array()?
            .iter()
            .find(|p| {
                keys.iter().any(|key| {
                    p.get(*key)
                        .and_then(Json::as_array)
                        .is_some_and(|listed| listed.iter().filter_map(Json::as_str).any(named))
                })
            })
            .cloned()
    }

    /// The entry of the rules' `products` whose `repositories` name the image a container of
    /// node `i` runs (`mysql:8.4` → mysql): a product that keeps state.
    pub(super) fn image_product(&self, i: usize, image: &str) -> Option<Json> {
        let name = crate::back::images::repository(image);
        self.binds[i]
            .get("products")?
            .as_array()?
            .iter()
            .find(|p| json_strings(p, "repositories").iter().any(|r| r == name))
            .cloned()
    }

    /// The port and port name the `known_ports` table gives node `i`, by the words of its
    /// name and types.
    pub(super) fn known_port(&self, i: usize) -> Option<(String, i64)> {
        let entry = self.table_entry(i, "known_ports", true)?;
        let port = entry.get("port").and_then(Json::as_i64)?;
        let name = json_str(&entry, "name").unwrap_or(&self.node(i).name);
        Some((name.to_string(), port))
    }
}
